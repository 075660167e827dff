/**
 * Summarises a V8 .cpuprofile (the inspector Profiler's JSON, as `node --cpu-prof` writes it): self
 * time per function and per area (a package under node_modules, a source file of this repo, Node's
 * internals, or V8's own (garbage collector) / (program)). Idle time is left out of the shares.
 */
import { repoRoot } from './common.ts';

interface ProfileNode {
  readonly id: number;
  readonly children?: readonly number[];
  readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number };
  readonly hitCount?: number;
}

export interface CpuProfile {
  readonly nodes: readonly ProfileNode[];
  readonly startTime: number;
  readonly endTime: number;
  readonly samples?: readonly number[];
}

export interface SelfTime {
  readonly name: string;
  readonly where: string;
  readonly area: string;
  readonly selfMs: number;
  /** Share of the non-idle samples, in %. */
  readonly share: number;
}

export interface ProfileSummary {
  readonly samples: number;
  /** Mean time between samples, in µs (the requested interval is a floor: the sampler shares the cores). */
  readonly meanIntervalUs: number;
  readonly sampledMs: number;
  readonly busyMs: number;
  readonly idleShare: number;
  readonly topFunctions: readonly SelfTime[];
  readonly topAreas: readonly { readonly area: string; readonly selfMs: number; readonly share: number }[];
  /** This repo's source files by inclusive time: the share of busy samples with the file on the stack. */
  readonly ownFilesInclusive: readonly { readonly file: string; readonly share: number }[];
}

/** Native frames, grouped by what they are. */
const nativeAreas: Record<string, string> = {
  writev: '(native) socket writes',
  writeUtf8String: '(native) socket writes',
  writeBuffer: '(native) socket writes',
  get: '(native) better-sqlite3',
  run: '(native) better-sqlite3',
  all: '(native) better-sqlite3',
  iterate: '(native) better-sqlite3',
  Hash: '(native) node:crypto',
  digest: '(native) node:crypto',
  update: '(native) node:crypto',
};

const root = `file://${repoRoot}`;

/** Where a call frame lives, short: `src/server/…ts:12`, `fastify/lib/route.js:40`, `node:internal/…`. */
function whereOf(url: string, line: number): string {
  if (!url) return '';
  const path = url.startsWith(root)
    ? url.slice(root.length)
    : url.startsWith(repoRoot)
      ? url.slice(repoRoot.length)
      : url;
  const short = path.replace(/^node_modules\//, '').replace(/^.*\/node_modules\//, '');
  return `${short}:${line + 1}`;
}

/** The area of a call frame: npm package, repo source file, Node internals, or a V8 pseudo-frame. */
function areaOf(name: string, url: string): string {
  if (!url) return name.startsWith('(') ? name : (nativeAreas[name] ?? '(native) other');
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg?.[1]) return pkg[1];
  if (url.startsWith('node:')) return `node:${url.slice(5).split('/').slice(0, 2).join('/')}`;
  const path = url.startsWith(root) ? url.slice(root.length) : url;
  return path;
}

export function summariseProfile(profile: CpuProfile, top = 10): ProfileSummary {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  // Self time counts samples, each worth the mean interval. Weighting each sample by the gap to the
  // next one would charge a stall of the sampling thread (both cores busy) to whatever ran before it.
  const counts = new Map<number, number>();
  if (profile.samples && profile.samples.length > 0) {
    for (const id of profile.samples) counts.set(id, (counts.get(id) ?? 0) + 1);
  } else {
    for (const n of profile.nodes) counts.set(n.id, n.hitCount ?? 0);
  }
  const totalSamples = [...counts.values()].reduce((a, b) => a + b, 0);
  const interval = (profile.endTime - profile.startTime) / Math.max(1, totalSamples);
  for (const [id, n] of counts) self.set(id, n * interval);
  const functions = new Map<string, { name: string; where: string; area: string; us: number }>();
  const areas = new Map<string, number>();
  let total = 0;
  let idle = 0;
  for (const [id, us] of self) {
    const node = byId.get(id);
    if (!node) continue;
    const { functionName, url, lineNumber } = node.callFrame;
    total += us;
    if (functionName === '(idle)') {
      idle += us;
      continue;
    }
    const name = functionName || '(anonymous)';
    const where = whereOf(url, lineNumber);
    const area = areaOf(name, url);
    const key = `${name}@${where}`;
    const entry = functions.get(key) ?? { name, where, area, us: 0 };
    entry.us += us;
    functions.set(key, entry);
    areas.set(area, (areas.get(area) ?? 0) + us);
  }
  const busy = total - idle;

  // Inclusive: for each busy sample, every file of this repo on its stack counts once.
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const inclusive = new Map<string, number>();
  for (const [id, us] of self) {
    const leaf = byId.get(id);
    if (!leaf || leaf.callFrame.functionName === '(idle)') continue;
    const files = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const url = byId.get(at)?.callFrame.url ?? '';
      if (url.startsWith(`${root}src/`)) files.add(url.slice(root.length));
    }
    for (const f of files) inclusive.set(f, (inclusive.get(f) ?? 0) + us);
  }
  const pct = (us: number) => Math.round((us / Math.max(1, busy)) * 1000) / 10;
  const ms = (us: number) => Math.round(us / 100) / 10;
  return {
    samples: totalSamples,
    meanIntervalUs: Math.round(interval),
    sampledMs: ms(total),
    busyMs: ms(busy),
    idleShare: Math.round((idle / Math.max(1, total)) * 1000) / 10,
    topFunctions: [...functions.values()]
      .sort((a, b) => b.us - a.us)
      .slice(0, top)
      .map((f) => ({ name: f.name, where: f.where, area: f.area, selfMs: ms(f.us), share: pct(f.us) })),
    topAreas: [...areas.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([area, us]) => ({ area, selfMs: ms(us), share: pct(us) })),
    ownFilesInclusive: [...inclusive.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([file, us]) => ({ file, share: pct(us) })),
  };
}
