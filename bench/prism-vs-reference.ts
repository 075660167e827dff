/**
 * Benchmark 1: the reference server against a bare fastify floor and Stoplight Prism (`prism mock
 * openapi.yaml`, a dev dependency, pinned to 5.14.2, the last release that runs on Node 20) on the
 * same machine, with the same load tool (autocannon, programmatic) and the same settings, interleaved
 * in one run: in every cell (endpoint × connections) each round runs every target once, in the order
 * A B C D, the next round D C B A, and so on, so drift of the shared machine hits all alike.
 *
 * Targets:
 * - the reference server in a child process (bench/server-child.ts), logger off, each run on a fresh
 *   account with very high limits (test control), so no answer is a 429;
 * - the floor (bench/floor-child.ts): bare fastify 5 in a child process, answering the same paths
 *   with constant bodies of the byte sizes the reference server answered in this run;
 * - Prism with `-v silent`, which matches the reference server's logger-off setting;
 * - Prism exactly as `npx prism mock -h 127.0.0.1 -p <port> openapi.yaml` runs it (its default `info`
 *   logging, written to a file).
 *
 * Before each run, every target's process must be quiet (bench/quiet.ts): a slow target working off
 * its backlog would otherwise eat into the next target's run.
 *
 * Every response's status is counted against the one expected of that target, so a benchmark of
 * 401s or 429s cannot pass for speed. Ratios are taken round by round (bench/side-by-side.ts).
 * Afterwards the reference server is CPU-profiled (inspector, in the child) under GET /tryons/{id}
 * at 100 connections.
 */
import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { request } from 'undici';
import { makeGarmentImage, makePersonPhoto } from '../src/fixtures/images.ts';
import { summariseProfile, type CpuProfile, type ProfileSummary } from './cpu-profile.ts';
import {
  freePort,
  log,
  newAccount,
  round,
  startServerChild,
  startTryOn,
  upload,
  waitFinished,
  type ServerChild,
} from './common.ts';
import { paddedJson, startFloor } from './floor-process.ts';
import { prismKey, prismPackage, startPrism, stop } from './prism-process.ts';
import { cpuMicros, waitQuiet } from './quiet.ts';
import { installedVersion } from './versions.ts';
import {
  cellResult,
  endpoints,
  goalCell,
  ratiosOf,
  roundsOf,
  type CellResult,
  type CellRun,
  type EndpointName,
  type RatioResult,
  type TargetName,
} from './side-by-side.ts';

export type { CellResult, CellRun, EndpointName, RatioResult, TargetName } from './side-by-side.ts';

/** What the floor answers per endpoint: the reference server's status and body size in this run. */
export interface FloorBody {
  readonly endpoint: EndpointName;
  readonly status: number;
  readonly bytes: number;
  /** Response header names the reference server sent beside the body (the floor sends fastify's defaults). */
  readonly referenceHeaders: readonly string[];
}

export interface PrismResult {
  readonly prism: {
    readonly version: string;
    readonly node: string;
    readonly startupMs: number;
    readonly command: string;
  };
  readonly floor: { readonly fastify: string; readonly description: string; readonly bodies: readonly FloorBody[] };
  readonly durationSeconds: number;
  readonly rounds: number;
  /** The rounds of the cell an acceptance goal is judged on (GET /tryons/{id} at 10 connections, bench/goals.ts): never fewer than `rounds`; absent in older reports. */
  readonly goalCellRounds?: number;
  readonly connections: readonly number[];
  /** The order of the even rounds; odd rounds run it reversed. */
  readonly order: readonly TargetName[];
  readonly cells: readonly CellResult[];
  readonly ratios: readonly RatioResult[];
  readonly profile:
    | (ProfileSummary & {
        readonly file: string;
        readonly fileBytes: number;
        readonly load: string;
        readonly reqPerSec: number;
      })
    | { readonly error: string };
}

interface Target {
  readonly name: TargetName;
  readonly pid: number | undefined;
  /** Base of the API paths: the reference server and the floor serve /api/v1, Prism drops the templated server URL. */
  readonly base: string;
  /** Per run: the API key and the id of a try-on of that key's account. */
  prepare(): Promise<{ apiKey: string; tryOnId: string }>;
  readonly expected: Record<EndpointName, number>;
}

const consentFalse = {
  key: 'bench-consent-false-0001',
  body: JSON.stringify({ personImageId: 'img_benchPerson0001', garmentImageId: 'img_benchGarment001', consent: false }),
};

async function load(
  base: string,
  endpoint: EndpointName,
  apiKey: string,
  tryOnId: string,
  connections: number,
  duration: number,
) {
  const auth = { authorization: `Bearer ${apiKey}` };
  const options: autocannon.Options =
    endpoint === 'GET /tryons/{id}'
      ? { url: `${base}/tryons/${tryOnId}`, headers: auth }
      : endpoint === 'GET /account'
        ? { url: `${base}/account`, headers: auth }
        : {
            url: `${base}/tryons`,
            method: 'POST',
            headers: { ...auth, 'content-type': 'application/json', 'idempotency-key': consentFalse.key },
            body: consentFalse.body,
          };
  return autocannon({ ...options, connections, duration, timeout: 10 });
}

function runOf(
  result: autocannon.Result,
  expected: number,
  roundIndex: number,
  position: number,
  settleMs: number,
  cpuUs: number,
): CellRun {
  const statusCounts: Record<string, number> = {};
  for (const [code, stat] of Object.entries(result.statusCodeStats ?? {})) statusCounts[code] = stat.count ?? 0;
  const total = Object.values(statusCounts).reduce((a, b) => a + b, 0);
  return {
    round: roundIndex,
    position,
    settleMs,
    ...(Number.isFinite(cpuUs) && total > 0 && { cpuUsPerRequest: Math.round((cpuUs / total) * 10) / 10 }),
    reqPerSec: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    total,
    statusCounts,
    unexpected: total - (statusCounts[String(expected)] ?? 0),
    errors: result.errors,
    timeouts: result.timeouts,
  };
}

/** The reference server's answer to each endpoint, as the floor will mimic it: status, body size, header names. */
async function measureBodies(base: string, apiKey: string, tryOnId: string): Promise<FloorBody[]> {
  const out: FloorBody[] = [];
  for (const endpoint of endpoints) {
    const auth = { authorization: `Bearer ${apiKey}` };
    const res =
      endpoint === 'POST /tryons (consent false)'
        ? await request(`${base}/tryons`, {
            method: 'POST',
            headers: { ...auth, 'content-type': 'application/json', 'idempotency-key': consentFalse.key },
            body: consentFalse.body,
          })
        : await request(`${base}${endpoint === 'GET /account' ? '/account' : `/tryons/${tryOnId}`}`, { headers: auth });
    const bytes = Buffer.byteLength(Buffer.from(await res.body.arrayBuffer()));
    out.push({ endpoint, status: res.statusCode, bytes, referenceHeaders: Object.keys(res.headers).sort() });
  }
  return out;
}

export interface PrismOptions {
  readonly tmpDir: string;
  readonly reportDir: string;
  readonly durationSeconds: number;
  readonly rounds: number;
  /**
   * The rounds of the goal's cell (GET /tryons/{id} at 10 connections), when more than `rounds`: a
   * median of more rounds judges the 0.8× line more steadily on a shared machine.
   */
  readonly goalCellRounds?: number;
  readonly connections: readonly number[];
}

export async function runPrismVsReference(options: PrismOptions): Promise<PrismResult> {
  const reference = await startServerChild({ generationLatencyMs: 0 });
  try {
    return await measure(reference, options);
  } finally {
    await reference.close();
  }
}

async function measure(reference: ServerChild, options: PrismOptions): Promise<PrismResult> {
  const { tmpDir, durationSeconds, rounds } = options;
  const person = await makePersonPhoto();
  const garment = await makeGarmentImage();

  const referenceRun = async () => {
    const account = await newAccount(reference.url, { credits: 100 });
    const body = {
      personImageId: await upload(reference.url, account.apiKey, person, 'person.jpg'),
      garmentImageId: await upload(reference.url, account.apiKey, garment, 'garment.jpg'),
      consent: true,
    };
    const started = await startTryOn(
      reference.url,
      account.apiKey,
      `bench-${Date.now()}-${Math.random().toString(36).slice(2, 10)}`,
      body,
    );
    const tryOnId = String(started.body.id);
    if (started.status !== 200) throw new Error(`start: ${started.status} ${JSON.stringify(started.body)}`);
    const status = await waitFinished(reference.url, account.apiKey, tryOnId);
    if (status !== 'success') throw new Error(`the benchmark try-on ended ${status}`);
    return { apiKey: account.apiKey, tryOnId };
  };

  const sample = await referenceRun();
  const bodies = await measureBodies(`${reference.url}/api/v1`, sample.apiKey, sample.tryOnId);
  const bodyOf = (endpoint: EndpointName) => bodies.find((b) => b.endpoint === endpoint) as FloorBody;
  log(`reference bodies: ${bodies.map((b) => `${b.endpoint} ${b.status} ${b.bytes} B`).join('; ')}`);
  const floorRoutes = [
    { method: 'GET', url: '/api/v1/tryons/:id', endpoint: 'GET /tryons/{id}' },
    { method: 'POST', url: '/api/v1/tryons', endpoint: 'POST /tryons (consent false)' },
    { method: 'GET', url: '/api/v1/account', endpoint: 'GET /account' },
  ] as const;
  const children: ChildProcess[] = [];
  let cells: CellResult[];
  let prismStartupMs: number;
  let order: TargetName[];
  try {
    const floor = await startFloor(
      floorRoutes.map((r) => ({
        method: r.method,
        url: r.url,
        status: bodyOf(r.endpoint).status,
        body: paddedJson(bodyOf(r.endpoint).bytes),
      })),
    );
    children.push(floor.child);
    const prismPort = await freePort();
    const prism = await startPrism(prismPort, join(tmpDir, 'prism.log'), false);
    children.push(prism.child);
    const silentPort = await freePort();
    const silent = await startPrism(silentPort, join(tmpDir, 'prism-silent.log'), true);
    children.push(silent.child);
    prismStartupMs = prism.startupMs;
    log(
      `prism up in ${prism.startupMs} ms (and ${silent.startupMs} ms silent); reference at ${reference.url}; floor at ${floor.url}`,
    );

    const prismExpected: Record<EndpointName, number> = {
      'GET /tryons/{id}': 200,
      'POST /tryons (consent false)': 422,
      'GET /account': 200,
    };
    const prismPrepare = async () => ({ apiKey: prismKey, tryOnId: 'ton_7Hd2kQ9xLm3Pv8Rb' });
    const targets: Target[] = [
      {
        name: 'reference',
        pid: reference.pid,
        base: `${reference.url}/api/v1`,
        prepare: referenceRun,
        expected: { 'GET /tryons/{id}': 200, 'POST /tryons (consent false)': 403, 'GET /account': 200 },
      },
      {
        name: 'floor',
        pid: floor.child.pid,
        base: `${floor.url}/api/v1`,
        prepare: async () => ({ apiKey: prismKey, tryOnId: sample.tryOnId }),
        expected: {
          'GET /tryons/{id}': bodyOf('GET /tryons/{id}').status,
          'POST /tryons (consent false)': bodyOf('POST /tryons (consent false)').status,
          'GET /account': bodyOf('GET /account').status,
        },
      },
      // Prism validates the body against openapi.yaml (`consent: const true`) and answers its 422 example.
      {
        name: 'prism-silent',
        pid: silent.child.pid,
        base: `http://127.0.0.1:${silentPort}`,
        prepare: prismPrepare,
        expected: prismExpected,
      },
      {
        name: 'prism',
        pid: prism.child.pid,
        base: `http://127.0.0.1:${prismPort}`,
        prepare: prismPrepare,
        expected: prismExpected,
      },
    ];
    order = targets.map((t) => t.name);
    cells = await runCells(targets, options);
  } finally {
    for (const child of children) await stop(child);
  }

  return {
    prism: {
      version: (JSON.parse(readFileSync(prismPackage, 'utf8')) as { version: string }).version,
      node: process.version,
      startupMs: prismStartupMs,
      command:
        'node node_modules/@stoplight/prism-cli/dist/index.js mock -h 127.0.0.1 -p <port> openapi.yaml (= npx prism mock …); and the same with -v silent',
    },
    floor: {
      fastify: installedVersion('fastify'),
      description:
        "bench/floor-child.ts: fastify 5 in its own child process, logger off, no hooks, plugins or schemas; a synchronous handler sends a constant pre-serialised JSON string per route, padded to the byte size of the reference server's answer measured at the start of this run",
      bodies,
    },
    durationSeconds,
    rounds,
    goalCellRounds: roundsOf(options, goalCell.endpoint, goalCell.connections),
    connections: options.connections,
    order,
    cells,
    ratios: ratiosOf(cells),
    profile: await profileGetTryOn(reference, referenceRun, options),
  };
}

/** Every cell (endpoint × connections): `rounds` rounds (the goal's cell: `roundsOf`), each target once per round, the order reversed every other round. */
async function runCells(targets: readonly Target[], options: PrismOptions): Promise<CellResult[]> {
  const cells: CellResult[] = [];
  const pids = targets.flatMap((t) => (t.pid === undefined ? [] : [t.pid]));
  // Warm-up (not recorded): JIT and connection set-up on every target and endpoint.
  for (const target of targets) {
    const { apiKey, tryOnId } = await target.prepare();
    for (const endpoint of endpoints) await load(target.base, endpoint, apiKey, tryOnId, 10, 1);
  }
  for (const endpoint of endpoints) {
    for (const connections of options.connections) {
      const runs = new Map<TargetName, CellRun[]>(targets.map((t) => [t.name, []]));
      for (let r = 0, rounds = roundsOf(options, endpoint, connections); r < rounds; r++) {
        const order = r % 2 === 0 ? targets : [...targets].reverse();
        for (const [position, target] of order.entries()) {
          const { apiKey, tryOnId } = await target.prepare();
          const settleMs = await waitQuiet(pids);
          const cpuBefore = cpuMicros(target.pid);
          const result = await load(target.base, endpoint, apiKey, tryOnId, connections, options.durationSeconds);
          const cpuUs = cpuMicros(target.pid) - cpuBefore;
          const run = runOf(result, target.expected[endpoint], r, position, settleMs, cpuUs);
          runs.get(target.name)?.push(run);
          log(
            `${endpoint} ×${connections} round ${r + 1} ${target.name}: ${round(run.reqPerSec, 0)} req/s, ${run.cpuUsPerRequest ?? '?'} µs CPU/req, p50 ${run.p50Ms} ms, p99 ${run.p99Ms} ms, ${JSON.stringify(run.statusCounts)}${run.errors ? `, ${run.errors} errors` : ''}`,
          );
        }
      }
      for (const target of targets)
        cells.push(
          cellResult(endpoint, connections, target.name, target.expected[endpoint], runs.get(target.name) ?? []),
        );
    }
  }
  return cells;
}

/** The reference server's hottest path, CPU-profiled: GET /tryons/{id} at 100 connections. */
async function profileGetTryOn(
  reference: ServerChild,
  referenceRun: () => Promise<{ apiKey: string; tryOnId: string }>,
  options: PrismOptions,
): Promise<PrismResult['profile']> {
  try {
    const { apiKey, tryOnId } = await referenceRun();
    const file = join(options.reportDir, 'get-tryon.cpuprofile');
    await reference.profileStart(250);
    const result = await load(
      `${reference.url}/api/v1`,
      'GET /tryons/{id}',
      apiKey,
      tryOnId,
      100,
      options.durationSeconds,
    );
    await reference.profileStop(file);
    const text = readFileSync(file, 'utf8');
    const json = JSON.parse(text) as CpuProfile;
    return {
      ...summariseProfile(json, 10),
      file: 'reports/bench/get-tryon.cpuprofile',
      fileBytes: Buffer.byteLength(text),
      load: `GET /tryons/{id}, 100 connections, ${options.durationSeconds} s`,
      reqPerSec: round(result.requests.average, 0),
    };
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
}
