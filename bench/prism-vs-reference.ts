/**
 * Benchmark 1: the reference server against Stoplight Prism (`prism mock openapi.yaml`, a dev
 * dependency, pinned to 5.14.2, the last release that runs on Node 20) on the same machine, with the
 * same load tool (autocannon, programmatic), interleaved in one run: every cell (endpoint ×
 * connections) runs each target in turn, twice, in the order A B C then C B A, so drift hits all alike.
 *
 * Targets:
 * - the reference server in a child process (bench/server-child.ts), logger off, each cell on a fresh
 *   account with very high limits (test control), so no answer is a 429;
 * - Prism exactly as `npx prism mock -h 127.0.0.1 -p <port> openapi.yaml` runs it (its default `info`
 *   logging, written to a file);
 * - Prism with `-v silent`, which matches the reference server's logger-off setting.
 *
 * Every response's status is counted against the one expected of that target, so a benchmark of
 * 401s or 429s cannot pass for speed. Afterwards the reference server is CPU-profiled (inspector,
 * in the child) under GET /tryons/{id} at 100 connections.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { makeGarmentImage, makePersonPhoto } from '../src/fixtures/images.ts';
import { prismKey, prismPackage, startPrism, stop } from './prism-process.ts';
import { summariseProfile, type CpuProfile, type ProfileSummary } from './cpu-profile.ts';
import { freePort, log, newAccount, round, startServerChild, startTryOn, upload, waitFinished } from './common.ts';

export type TargetName = 'reference' | 'prism' | 'prism-silent';
export type EndpointName = 'GET /tryons/{id}' | 'POST /tryons (consent false)' | 'GET /account';

export interface CellRun {
  readonly reqPerSec: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly total: number;
  readonly statusCounts: Record<string, number>;
  readonly unexpected: number;
  readonly errors: number;
  readonly timeouts: number;
}

export interface CellResult {
  readonly endpoint: EndpointName;
  readonly connections: number;
  readonly target: TargetName;
  readonly expectedStatus: number;
  /** Means over the runs. */
  readonly reqPerSec: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  /** Responses other than the expected status, and connection errors, over all runs. */
  readonly unexpected: number;
  readonly errors: number;
  readonly statusCounts: Record<string, number>;
  readonly runs: readonly CellRun[];
}

export interface PrismResult {
  readonly prism: { readonly version: string; readonly node: string; readonly startupMs: number; readonly command: string };
  readonly durationSeconds: number;
  readonly rounds: number;
  readonly cells: readonly CellResult[];
  readonly profile: (ProfileSummary & { readonly file: string; readonly load: string; readonly reqPerSec: number }) | { readonly error: string };
}


interface Target {
  readonly name: TargetName;
  /** Base of the API paths: the reference server serves /api/v1, Prism drops the templated server URL. */
  readonly base: string;
  /** Per cell: the API key and the id of a try-on of that key's account. */
  prepare(): Promise<{ apiKey: string; tryOnId: string }>;
  readonly expected: Record<EndpointName, number>;
}

async function load(base: string, endpoint: EndpointName, apiKey: string, tryOnId: string, connections: number, duration: number) {
  const auth = { authorization: `Bearer ${apiKey}` };
  const options: autocannon.Options =
    endpoint === 'GET /tryons/{id}'
      ? { url: `${base}/tryons/${tryOnId}`, headers: auth }
      : endpoint === 'GET /account'
        ? { url: `${base}/account`, headers: auth }
        : {
            url: `${base}/tryons`,
            method: 'POST',
            headers: { ...auth, 'content-type': 'application/json', 'idempotency-key': 'bench-consent-false-0001' },
            body: JSON.stringify({ personImageId: 'img_benchPerson0001', garmentImageId: 'img_benchGarment001', consent: false }),
          };
  return autocannon({ ...options, connections, duration, timeout: 10 });
}

function runOf(result: autocannon.Result, expected: number): CellRun {
  const statusCounts: Record<string, number> = {};
  for (const [code, stat] of Object.entries(result.statusCodeStats ?? {})) statusCounts[code] = stat.count ?? 0;
  const total = Object.values(statusCounts).reduce((a, b) => a + b, 0);
  return {
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

const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);

export async function runPrismVsReference(options: { tmpDir: string; reportDir: string; durationSeconds: number; rounds: number }): Promise<PrismResult> {
  const { tmpDir, durationSeconds, rounds } = options;
  const reference = await startServerChild({ generationLatencyMs: 0 });
  const person = await makePersonPhoto();
  const garment = await makeGarmentImage();
  const prismPort = await freePort();
  const prism = await startPrism(prismPort, join(tmpDir, 'prism.log'), false);
  const silentPort = await freePort();
  const silent = await startPrism(silentPort, join(tmpDir, 'prism-silent.log'), true);
  log(`prism up in ${prism.startupMs} ms (and ${silent.startupMs} ms silent); reference at ${reference.url}`);

  const referenceCell = async () => {
    const account = await newAccount(reference.url, { credits: 100 });
    const body = {
      personImageId: await upload(reference.url, account.apiKey, person, 'person.jpg'),
      garmentImageId: await upload(reference.url, account.apiKey, garment, 'garment.jpg'),
      consent: true,
    };
    const started = await startTryOn(reference.url, account.apiKey, `bench-${Date.now()}-${Math.random().toString(36).slice(2, 10)}`, body);
    const tryOnId = String(started.body.id);
    if (started.status !== 200) throw new Error(`start: ${started.status} ${JSON.stringify(started.body)}`);
    const status = await waitFinished(reference.url, account.apiKey, tryOnId);
    if (status !== 'success') throw new Error(`the benchmark try-on ended ${status}`);
    return { apiKey: account.apiKey, tryOnId };
  };
  const targets: Target[] = [
    { name: 'reference', base: `${reference.url}/api/v1`, prepare: referenceCell, expected: { 'GET /tryons/{id}': 200, 'POST /tryons (consent false)': 403, 'GET /account': 200 } },
    // Prism validates the body against openapi.yaml (`consent: const true`) and answers its 422 example.
    ...(['prism', 'prism-silent'] as const).map((name) => ({
      name,
      base: `http://127.0.0.1:${name === 'prism' ? prismPort : silentPort}`,
      prepare: async () => ({ apiKey: prismKey, tryOnId: 'ton_7Hd2kQ9xLm3Pv8Rb' }),
      expected: { 'GET /tryons/{id}': 200, 'POST /tryons (consent false)': 422, 'GET /account': 200 } as Record<EndpointName, number>,
    })),
  ];

  const endpoints: EndpointName[] = ['GET /tryons/{id}', 'POST /tryons (consent false)', 'GET /account'];
  const cells: CellResult[] = [];
  try {
    // Warm-up (not recorded): JIT and connection set-up on every target and endpoint.
    for (const target of targets) {
      const { apiKey, tryOnId } = await target.prepare();
      for (const endpoint of endpoints) await load(target.base, endpoint, apiKey, tryOnId, 10, 1);
    }
    for (const endpoint of endpoints) {
      for (const connections of [10, 100]) {
        const runs = new Map<TargetName, CellRun[]>(targets.map((t) => [t.name, []]));
        for (let r = 0; r < rounds; r++) {
          const order = r % 2 === 0 ? targets : [...targets].reverse();
          for (const target of order) {
            const { apiKey, tryOnId } = await target.prepare();
            const run = runOf(await load(target.base, endpoint, apiKey, tryOnId, connections, durationSeconds), target.expected[endpoint]);
            runs.get(target.name)?.push(run);
            log(`${endpoint} ×${connections} ${target.name}: ${round(run.reqPerSec, 0)} req/s, p50 ${run.p50Ms} ms, p99 ${run.p99Ms} ms, ${JSON.stringify(run.statusCounts)}${run.errors ? `, ${run.errors} errors` : ''}`);
          }
        }
        for (const target of targets) {
          const list = runs.get(target.name) ?? [];
          const statusCounts: Record<string, number> = {};
          for (const run of list) for (const [code, n] of Object.entries(run.statusCounts)) statusCounts[code] = (statusCounts[code] ?? 0) + n;
          cells.push({
            endpoint,
            connections,
            target: target.name,
            expectedStatus: target.expected[endpoint],
            reqPerSec: round(mean(list.map((x) => x.reqPerSec)), 0),
            p50Ms: round(mean(list.map((x) => x.p50Ms)), 1),
            p99Ms: round(mean(list.map((x) => x.p99Ms)), 1),
            unexpected: list.reduce((s, x) => s + x.unexpected, 0),
            errors: list.reduce((s, x) => s + x.errors, 0),
            statusCounts,
            runs: list,
          });
        }
      }
    }
  } finally {
    await stop(prism.child);
    await stop(silent.child);
  }

  // Profile the reference server's hottest path: GET /tryons/{id} at 100 connections.
  let profile: PrismResult['profile'];
  try {
    const { apiKey, tryOnId } = await referenceCell();
    const file = join(options.reportDir, 'get-tryon.cpuprofile');
    await reference.profileStart(250);
    const result = await load(`${reference.url}/api/v1`, 'GET /tryons/{id}', apiKey, tryOnId, 100, durationSeconds);
    await reference.profileStop(file);
    const json = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
    profile = { ...summariseProfile(json, 10), file: 'reports/bench/get-tryon.cpuprofile', load: `GET /tryons/{id}, 100 connections, ${durationSeconds} s`, reqPerSec: round(result.requests.average, 0) };
  } catch (error) {
    profile = { error: error instanceof Error ? error.message : String(error) };
  } finally {
    await reference.close();
  }

  return {
    prism: {
      version: (JSON.parse(readFileSync(prismPackage, 'utf8')) as { version: string }).version,
      node: process.version,
      startupMs: prism.startupMs,
      command: 'node node_modules/@stoplight/prism-cli/dist/index.js mock -h 127.0.0.1 -p <port> openapi.yaml (= npx prism mock …); and the same with -v silent',
    },
    durationSeconds,
    rounds,
    cells,
    profile,
  };
}
