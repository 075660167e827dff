/**
 * A/B of GET /tryons/{id} against its floor (issue 15, item 2): the reference server (a child,
 * bench/server-child.ts) and a bare fastify server in a child of its own that answers the same
 * bytes as a constant JSON body, loaded by autocannon in turn, A B B A per round, at the same
 * connections and duration. Prints each run (req/s, p99, and the server process's CPU time per
 * request from /proc, which a loaded machine disturbs less than req/s) and the ratio reference /
 * floor as min/median/max over the rounds. A tool for working on the server's hot path; `npm run
 * bench` publishes the figures.
 *
 *   npx tsx bench/ab-get-tryon.ts [--rounds 3] [--seconds 3] [--connections 10] [--profile /tmp/prefix]
 *
 * With --profile, both servers are then CPU-profiled under the same load (<prefix>.reference.cpuprofile,
 * <prefix>.floor.cpuprofile) and the self time per request of each function is printed side by side,
 * largest difference first (bench/cpu-profile.ts).
 */
import { fork } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import Fastify from 'fastify';
import { makeGarmentImage, makePersonPhoto } from '../src/fixtures/images.ts';
import { newAccount, round, startServerChild, startTryOn, upload, waitFinished } from './common.ts';
import { summariseProfile, type CpuProfile } from './cpu-profile.ts';

const floorEnv = 'AB_GET_TRYON_FLOOR_BODY';

/** The floor: fastify with its defaults and logger off, one route answering a constant object. */
async function runFloor(body: string): Promise<void> {
  const constant = JSON.parse(body) as unknown;
  const app = Fastify({ logger: false });
  app.get('/api/v1/tryons/:id', async () => constant);
  const url = await app.listen({ host: '127.0.0.1', port: 0 });
  // The same window profiling as bench/server-child.ts, so the two profiles compare.
  let session: Session | undefined;
  process.on('message', async (m: { type: 'profile-start' } | { type: 'profile-stop'; path: string }) => {
    if (m.type === 'profile-start') {
      session = new Session();
      session.connect();
      await session.post('Profiler.enable');
      await session.post('Profiler.setSamplingInterval', { interval: 250 });
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
  const ask = (message: object) => new Promise<void>((resolve) => {
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
  const result = await autocannon({ url, headers: { authorization: `Bearer ${apiKey}` }, connections, duration, timeout: 10 });
  const cpuPerRequest = (cpuMicros(pid) - cpuBefore) / Math.max(1, result.requests.total);
  const non200 = Object.entries(result.statusCodeStats ?? {}).reduce((n, [code, s]) => n + (code === '200' ? 0 : (s.count ?? 0)), 0);
  return { reqPerSec: result.requests.average, p99: result.latency.p99, non200, errors: result.errors, cpuPerRequest };
}

const median = (xs: readonly number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? (s[mid] ?? Number.NaN) : ((s[mid - 1] ?? 0) + (s[mid] ?? 0)) / 2;
};

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      rounds: { type: 'string', default: '3' },
      seconds: { type: 'string', default: '3' },
      connections: { type: 'string', default: '10' },
      profile: { type: 'string' },
    },
  });
  const rounds = Number(values.rounds);
  const seconds = Number(values.seconds);
  const connections = Number(values.connections);

  const reference = await startServerChild({ generationLatencyMs: 0 });
  const account = await newAccount(reference.url, { credits: 100 });
  const body = {
    personImageId: await upload(reference.url, account.apiKey, await makePersonPhoto(), 'person.jpg'),
    garmentImageId: await upload(reference.url, account.apiKey, await makeGarmentImage(), 'garment.jpg'),
    consent: true,
  };
  const started = await startTryOn(reference.url, account.apiKey, `ab-${Date.now()}`, body);
  const id = String(started.body.id);
  const status = await waitFinished(reference.url, account.apiKey, id);
  if (status !== 'success') throw new Error(`the try-on ended ${status}`);
  const readUrl = `${reference.url}/api/v1/tryons/${id}`;
  const read = await fetch(readUrl, { headers: { authorization: `Bearer ${account.apiKey}` } });
  const readBody = await read.text();
  const floor = await startFloor(readBody);
  const floorUrl = `${floor.url}/api/v1/tryons/${id}`;
  const floorBody = await (await fetch(floorUrl)).text();
  console.log(`body: ${Buffer.byteLength(readBody)} bytes (floor ${Buffer.byteLength(floorBody)}); ${connections} connections, ${seconds} s, ${rounds} rounds A B B A`);

  const targets = { reference: readUrl, floor: floorUrl } as const;
  if (process.env.AB_HOLD) {
    console.log(JSON.stringify({ reference: { pid: reference.pid, url: readUrl }, floor: { pid: floor.pid, url: floorUrl }, key: account.apiKey }));
    await new Promise((r) => setTimeout(r, Number(process.env.AB_HOLD)));
  }
  const pids = { reference: reference.pid, floor: floor.pid } as const;
  const cpu: Record<keyof typeof targets, number[]> = { reference: [], floor: [] };
  const runs: Record<keyof typeof targets, number[]> = { reference: [], floor: [] };
  const ratios: number[] = [];
  try {
    for (const name of ['reference', 'floor'] as const) await load(targets[name], account.apiKey, connections, 1);
    for (let r = 0; r < rounds; r++) {
      const order = ['reference', 'floor', 'floor', 'reference'] as const;
      const got: Record<string, number[]> = { reference: [], floor: [] };
      for (const name of order) {
        const run = await load(targets[name], account.apiKey, connections, seconds, pids[name]);
        cpu[name].push(run.cpuPerRequest);
        if (run.non200 || run.errors) throw new Error(`${name}: ${run.non200} answers not 200, ${run.errors} errors`);
        got[name]?.push(run.reqPerSec);
        runs[name].push(run.reqPerSec);
        console.log(`  round ${r + 1} ${name.padEnd(9)} ${round(run.reqPerSec, 0)} req/s, p99 ${run.p99} ms, ${round(run.cpuPerRequest, 1)} µs CPU per request (server process)`);
      }
      const ratio = (got.reference ?? []).reduce((a, b) => a + b, 0) / (got.floor ?? []).reduce((a, b) => a + b, 0);
      ratios.push(ratio);
      console.log(`  round ${r + 1} ratio ${round(ratio, 3)}`);
    }
    const mmm = (xs: number[], d: number) => `${round(Math.min(...xs), d)} / ${round(median(xs), d)} / ${round(Math.max(...xs), d)}`;
    console.log(`reference req/s min/median/max: ${mmm(runs.reference, 0)}`);
    console.log(`floor     req/s min/median/max: ${mmm(runs.floor, 0)}`);
    console.log(`ratio reference/floor min/median/max: ${mmm(ratios, 3)}`);
    console.log(`server CPU µs per request, median: reference ${round(median(cpu.reference), 1)}, floor ${round(median(cpu.floor), 1)}`);

    if (values.profile) {
      // Both servers under the same load, one after the other; self time per request, per function.
      const perRequest = new Map<string, { reference: number; floor: number }>();
      for (const name of ['reference', 'floor'] as const) {
        const path = `${values.profile}.${name}.cpuprofile`;
        const target = name === 'reference' ? reference : floor;
        await (name === 'reference' ? reference.profileStart(250) : floor.profileStart());
        const run = await autocannon({ url: targets[name], headers: { authorization: `Bearer ${account.apiKey}` }, connections, duration: seconds });
        await (name === 'reference' ? reference.profileStop(path) : floor.profileStop(path));
        void target;
        const summary = summariseProfile(JSON.parse(readFileSync(path, 'utf8')) as CpuProfile, 60);
        console.log(`${name}: ${run.requests.total} requests, busy ${summary.busyMs} ms, ${round((summary.busyMs * 1000) / run.requests.total, 1)} µs busy per request; ${path}`);
        for (const f of summary.topFunctions) {
          const key = `${f.name} ${f.where}`;
          const entry = perRequest.get(key) ?? { reference: 0, floor: 0 };
          entry[name] = (f.selfMs * 1000) / run.requests.total;
          perRequest.set(key, entry);
        }
      }
      const rows = [...perRequest.entries()].sort((a, b) => b[1].reference - b[1].floor - (a[1].reference - a[1].floor));
      console.log('µs self time per request: reference, floor, difference');
      for (const [key, v] of rows.slice(0, 40)) console.log(`  ${round(v.reference, 2)}\t${round(v.floor, 2)}\t${round(v.reference - v.floor, 2)}\t${key}`);
    }
  } finally {
    floor.close();
    await reference.close();
  }
}

const floorBody = process.env[floorEnv];
if (floorBody !== undefined) await runFloor(floorBody);
else await main();
