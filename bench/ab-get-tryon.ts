/**
 * A/B of GET /tryons/{id} against its floor (issue 15, item 2): the reference server (a child,
 * bench/server-child.ts) and the floor of `npm run bench` (bench/floor-child.ts: bare fastify, a
 * synchronous handler sending the same bytes as a constant pre-serialised body), loaded by
 * autocannon in turn, A B B A per round, at the same connections and duration. Prints each run
 * (req/s, p99, and the server process's CPU time per request from /proc, which a loaded machine
 * disturbs less than req/s) and the ratio reference / floor as min/median/max over the rounds. A
 * tool for working on the server's hot path; `npm run bench` publishes the figures.
 *
 *   npx tsx bench/ab-get-tryon.ts [--rounds 3] [--seconds 3] [--connections 10] [--baseline <dist>] [--profile /tmp/prefix]
 *
 * The reference server runs as BENCH_SERVER_DIST says (bench/common.ts): set it to an absolute dist/
 * (`npm run build`) to measure compiled code as `npm run bench` does; unset, the sources under tsx.
 * With --baseline (another compiled build, e.g. of the commit before a change, made with
 * `tsc -p tsconfig.build.json --outDir .tmp/<name>/dist` so its imports resolve), that build runs
 * too as a third target in every round (A B C C B A), and its ratio to the floor and to the
 * reference server are printed: before and after, side by side in the same rounds.
 *
 * With --profile, the reference server and this file's own floor (the same handler as
 * bench/floor-child.ts, with profiling over IPC) are then CPU-profiled under the same load
 * (<prefix>.reference.cpuprofile, <prefix>.floor.cpuprofile) and the self time per request of each
 * function is printed side by side, largest difference first (bench/cpu-profile.ts).
 */
import { fork } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Session } from 'node:inspector/promises';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import Fastify from 'fastify';
import { makeGarmentImage, makePersonPhoto } from '../src/fixtures/images.ts';
import { newAccount, round, serverCode, startServerChild, startTryOn, upload, waitFinished } from './common.ts';
import { summariseProfile, type CpuProfile } from './cpu-profile.ts';
import { startFloor as startBenchFloor } from './floor-process.ts';

const floorEnv = 'AB_GET_TRYON_FLOOR_BODY';

/** The profiled floor: bench/floor-child.ts's handler (a constant pre-serialised body), with profiling over IPC. */
async function runFloor(body: string): Promise<void> {
  const app = Fastify({ logger: false });
  app.get('/api/v1/tryons/:id', (_request, reply) => {
    reply.code(200).header('content-type', 'application/json; charset=utf-8').send(body);
  });
  const url = await app.listen({ host: '127.0.0.1', port: 0 });
  // The same window profiling as bench/server-child.ts, so the two profiles compare.
  let session: Session | undefined;
  process.on('message', async (m: { type: 'profile-start' } | { type: 'profile-stop'; path: string }) => {
    if (m.type === 'profile-start') {
      session = new Session();
      session.connect();
      await session.post('Profiler.enable');
      await session.post('Profiler.setSamplingInterval', {
        interval: Number(process.env.AB_PROFILE_INTERVAL_US ?? 250),
      });
      await session.post('Profiler.start');
      process.send?.({ type: 'profiling' });
    } else if (session) {
      const { profile } = await session.post('Profiler.stop');
      writeFileSync(m.path, JSON.stringify(profile));
      session.disconnect();
      process.send?.({ type: 'profiled' });
    }
  });
  process.send?.({ url });
  process.on('disconnect', () => process.exit(0));
}

/** CPU time (user + system) a process has used, in µs, from /proc (Linux); NaN elsewhere. */
function cpuMicros(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return (Number(fields[11]) + Number(fields[12])) * 10_000;
  } catch {
    return Number.NaN;
  }
}

interface Floor {
  readonly url: string;
  readonly pid: number;
  profileStart(): Promise<void>;
  profileStop(path: string): Promise<void>;
  close(): void;
}

async function startFloor(body: string): Promise<Floor> {
  const child = fork(new URL(import.meta.url).pathname, [], {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, [floorEnv]: body },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the floor did not start within 30 s')), 30_000);
    child.once('message', (m: { url: string }) => {
      clearTimeout(timer);
      resolve(m.url);
    });
    child.once('exit', (code) => reject(new Error(`the floor exited with ${code}`)));
  });
  const ask = (message: object) =>
    new Promise<void>((resolve) => {
      child.once('message', () => resolve());
      child.send(message);
    });
  return {
    url,
    pid: child.pid ?? 0,
    profileStart: () => ask({ type: 'profile-start' }),
    profileStop: (path) => ask({ type: 'profile-stop', path }),
    close: () => void child.kill('SIGTERM'),
  };
}

async function load(url: string, apiKey: string, connections: number, duration: number, pid = 0) {
  const cpuBefore = cpuMicros(pid);
  const result = await autocannon({
    url,
    headers: { authorization: `Bearer ${apiKey}` },
    connections,
    duration,
    timeout: 10,
  });
  const cpuPerRequest = (cpuMicros(pid) - cpuBefore) / Math.max(1, result.requests.total);
  const non200 = Object.entries(result.statusCodeStats ?? {}).reduce(
    (n, [code, s]) => n + (code === '200' ? 0 : (s.count ?? 0)),
    0,
  );
  return { reqPerSec: result.requests.average, p99: result.latency.p99, non200, errors: result.errors, cpuPerRequest };
}

const median = (xs: readonly number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? (s[mid] ?? Number.NaN) : ((s[mid - 1] ?? 0) + (s[mid] ?? 0)) / 2;
};

/** A reference server child with one finished try-on of a fresh account (limits raised), ready to read. */
async function readyServer(dist: string | undefined) {
  const saved = process.env.BENCH_SERVER_DIST;
  if (dist !== undefined) process.env.BENCH_SERVER_DIST = resolve(dist);
  const server = await startServerChild({ generationLatencyMs: 0 }).finally(() => {
    if (saved === undefined) delete process.env.BENCH_SERVER_DIST;
    else process.env.BENCH_SERVER_DIST = saved;
  });
  const account = await newAccount(server.url, { credits: 100 });
  const body = {
    personImageId: await upload(server.url, account.apiKey, await makePersonPhoto(), 'person.jpg'),
    garmentImageId: await upload(server.url, account.apiKey, await makeGarmentImage(), 'garment.jpg'),
    consent: true,
  };
  const started = await startTryOn(server.url, account.apiKey, `ab-${Date.now()}`, body);
  const id = String(started.body.id);
  const status = await waitFinished(server.url, account.apiKey, id);
  if (status !== 'success') throw new Error(`the try-on ended ${status}`);
  const url = `${server.url}/api/v1/tryons/${id}`;
  const read = await fetch(url, { headers: { authorization: `Bearer ${account.apiKey}` } });
  return { server, url, key: account.apiKey, id, body: await read.text() };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      rounds: { type: 'string', default: '3' },
      seconds: { type: 'string', default: '3' },
      connections: { type: 'string', default: '10' },
      baseline: { type: 'string' },
      profile: { type: 'string' },
    },
  });
  const rounds = Number(values.rounds);
  const seconds = Number(values.seconds);
  const connections = Number(values.connections);

  const reference = await readyServer(undefined);
  const baseline = values.baseline === undefined ? undefined : await readyServer(values.baseline);
  const floor = await startBenchFloor([
    { method: 'GET', url: '/api/v1/tryons/:id', status: 200, body: reference.body },
  ]);
  const floorUrl = `${floor.url}/api/v1/tryons/${reference.id}`;
  const floorBody = await (await fetch(floorUrl)).text();
  if (floorBody !== reference.body) throw new Error("the floor does not answer the reference server's bytes");
  if (baseline && Buffer.byteLength(baseline.body) !== Buffer.byteLength(reference.body))
    console.log(`note: the baseline answers ${Buffer.byteLength(baseline.body)} bytes`);
  console.log(`code: ${serverCode().description}${values.baseline ? `; baseline ${resolve(values.baseline)}` : ''}`);
  console.log(
    `body: ${Buffer.byteLength(reference.body)} bytes; ${connections} connections, ${seconds} s, ${rounds} rounds ${baseline ? 'A B C C B A' : 'A B B A'}`,
  );

  type Name = 'reference' | 'floor' | 'baseline';
  const targets: Partial<Record<Name, { url: string; key: string; pid: number }>> = {
    reference: { url: reference.url, key: reference.key, pid: reference.server.pid },
    floor: { url: floorUrl, key: reference.key, pid: floor.child.pid ?? 0 },
    ...(baseline && { baseline: { url: baseline.url, key: baseline.key, pid: baseline.server.pid } }),
  };
  const names = Object.keys(targets) as Name[];
  if (process.env.AB_HOLD) {
    console.log(JSON.stringify(targets));
    await new Promise((r) => setTimeout(r, Number(process.env.AB_HOLD)));
  }
  const cpu: Record<Name, number[]> = { reference: [], floor: [], baseline: [] };
  const runs: Record<Name, number[]> = { reference: [], floor: [], baseline: [] };
  const ratios: Record<'reference' | 'baseline' | 'referenceToBaseline', number[]> = {
    reference: [],
    baseline: [],
    referenceToBaseline: [],
  };
  const sum = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0);
  try {
    for (const name of names) await load(targets[name]?.url ?? '', targets[name]?.key ?? '', connections, 1);
    for (let r = 0; r < rounds; r++) {
      // A B (C) then the reverse; every other round starts from the other end.
      const forward = r % 2 === 0 ? names : [...names].reverse();
      const order = [...forward, ...[...forward].reverse()];
      const got: Record<Name, number[]> = { reference: [], floor: [], baseline: [] };
      for (const name of order) {
        const target = targets[name];
        if (!target) continue;
        const run = await load(target.url, target.key, connections, seconds, target.pid);
        cpu[name].push(run.cpuPerRequest);
        if (run.non200 || run.errors) throw new Error(`${name}: ${run.non200} answers not 200, ${run.errors} errors`);
        got[name].push(run.reqPerSec);
        runs[name].push(run.reqPerSec);
        console.log(
          `  round ${r + 1} ${name.padEnd(9)} ${round(run.reqPerSec, 0)} req/s, p99 ${run.p99} ms, ${round(run.cpuPerRequest, 1)} µs CPU per request (server process)`,
        );
      }
      ratios.reference.push(sum(got.reference) / sum(got.floor));
      let line = `  round ${r + 1} ratio reference/floor ${round(sum(got.reference) / sum(got.floor), 3)}`;
      if (baseline) {
        ratios.baseline.push(sum(got.baseline) / sum(got.floor));
        ratios.referenceToBaseline.push(sum(got.reference) / sum(got.baseline));
        line += `, baseline/floor ${round(sum(got.baseline) / sum(got.floor), 3)}, reference/baseline ${round(sum(got.reference) / sum(got.baseline), 3)}`;
      }
      console.log(line);
    }
    const mmm = (xs: number[], d: number) =>
      `${round(Math.min(...xs), d)} / ${round(median(xs), d)} / ${round(Math.max(...xs), d)}`;
    for (const name of names)
      console.log(
        `${name.padEnd(9)} req/s min/median/max: ${mmm(runs[name], 0)}; server CPU µs per request min/median/max: ${mmm(cpu[name], 1)}`,
      );
    console.log(`ratio reference/floor min/median/max: ${mmm(ratios.reference, 3)}`);
    if (baseline) {
      console.log(`ratio baseline/floor min/median/max: ${mmm(ratios.baseline, 3)}`);
      console.log(`ratio reference/baseline min/median/max: ${mmm(ratios.referenceToBaseline, 3)}`);
    }

    if (values.profile) {
      // Both servers under the same load, one after the other; self time per request, per function.
      const profiled = await startFloor(reference.body);
      const profiledUrl = `${profiled.url}/api/v1/tryons/${reference.id}`;
      const perRequest = new Map<string, { reference: number; floor: number }>();
      try {
        for (const name of ['reference', 'floor'] as const) {
          const path = `${values.profile}.${name}.cpuprofile`;
          await (name === 'reference'
            ? reference.server.profileStart(Number(process.env.AB_PROFILE_INTERVAL_US ?? 250))
            : profiled.profileStart());
          const run = await autocannon({
            url: name === 'reference' ? reference.url : profiledUrl,
            headers: { authorization: `Bearer ${reference.key}` },
            connections,
            duration: seconds,
          });
          await (name === 'reference' ? reference.server.profileStop(path) : profiled.profileStop(path));
          const summary = summariseProfile(JSON.parse(readFileSync(path, 'utf8')) as CpuProfile, 60);
          console.log(
            `${name}: ${run.requests.total} requests, busy ${summary.busyMs} ms, ${round((summary.busyMs * 1000) / run.requests.total, 1)} µs busy per request; ${path}`,
          );
          for (const f of summary.topFunctions) {
            const key = `${f.name} ${f.where}`;
            const entry = perRequest.get(key) ?? { reference: 0, floor: 0 };
            entry[name] = (f.selfMs * 1000) / run.requests.total;
            perRequest.set(key, entry);
          }
        }
      } finally {
        profiled.close();
      }
      const rows = [...perRequest.entries()].sort(
        (a, b) => b[1].reference - b[1].floor - (a[1].reference - a[1].floor),
      );
      console.log('µs self time per request: reference, floor, difference');
      for (const [key, v] of rows.slice(0, 40))
        console.log(`  ${round(v.reference, 2)}\t${round(v.floor, 2)}\t${round(v.reference - v.floor, 2)}\t${key}`);
    }
  } finally {
    floor.child.kill('SIGTERM');
    await reference.server.close();
    await baseline?.server.close();
  }
}

const floorBody = process.env[floorEnv];
if (floorBody !== undefined) await runFloor(floorBody);
else await main();
