/**
 * The proxy under hostile traffic: fast-check builds requests (methods, paths, headers, bodies;
 * sent whole, slowly, cut short, or as garbage) and the hostile upstream (proxy-upstream.ts) answers
 * each in the mode its path names. Every exchange goes through the proxy in its own process.
 * Afterwards: the process is still up and answers /_proxy/report (0 crashes); for every exchange
 * that completed with the upstream's answer, the request body the upstream received and the answer
 * body the client received have the digests of what was sent (0 altered bytes); and the process's
 * peak RSS, from /proc, is within the bound.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { request } from 'undici';
import { connect } from 'node:net';
import { isEnvelope, rawExchange, readAnswer } from '../hostile-input/raw-http.ts';
import { expectedAnswer, startHostileUpstream, upstreamModes, type UpstreamMode } from './proxy-upstream.ts';

export const defaultSeed = 20261127;
/**
 * The most the proxy's RSS may grow over its level after start, in MiB: 16 exchanges at once with
 * bodies up to 600 KB each way, socket buffers, and the judge's and grader's bounded state.
 */
export const rssGrowthBoundMiB = 160;
/**
 * The most the heap in use after a full collection may grow over the run, the judge's and the grader's
 * state (bounded by their caps) included: a leak of 8 KiB an exchange would exceed it within 10,000.
 */
export const heapGrowthBoundMiB = 48;

interface FuzzCase {
  readonly mode: UpstreamMode;
  readonly method: string;
  readonly path: string;
  readonly headers: ReadonlyArray<readonly [string, string]>;
  readonly bodySize: number;
  readonly bodySeed: number;
  readonly send: 'whole' | 'slow' | 'truncated' | 'garbage';
  readonly chunked: boolean;
}

export interface FuzzResult {
  readonly seed: number;
  readonly sent: number;
  readonly outcomes: Readonly<Record<string, number>>;
  readonly altered: readonly string[];
  readonly crashed: boolean;
  readonly reportStatus: number;
  readonly rssStartMiB: number;
  readonly rssPeakMiB: number;
  /** The heap in use after a full collection, at the start and after the run: a leak would show as growth. */
  readonly heapStartMiB: number;
  readonly heapAfterMiB: number;
  /** The proxy's open file descriptors (sockets among them) at the start and after the run. */
  readonly openFiles: { readonly start: number; readonly after: number };
  readonly seconds: number;
}

const tchar = fc.constantFrom(
  ..."!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ".split(''),
);
const pathChar = fc.constantFrom(..."abcxyz0189-._~!$&'()*+,;=:@/%".split(''), '%20', '%zz', '..', '//', '%2F');
const reserved = new Set([
  'host',
  'content-length',
  'transfer-encoding',
  'x-fuzz-id',
  'connection',
  'expect',
  'upgrade',
]);
const headerName = fc
  .string({ unit: tchar, minLength: 1, maxLength: 16 })
  .filter((n) => !reserved.has(n.toLowerCase()));
const headerValue = fc.string({
  unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)),
  maxLength: 64,
});

const fuzzCase: fc.Arbitrary<FuzzCase> = fc.record({
  mode: fc.constantFrom(...upstreamModes),
  method: fc.oneof(
    { weight: 12, arbitrary: fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD') },
    { weight: 1, arbitrary: fc.constantFrom('PROPFIND', 'BREW', 'get', 'CONNECT', 'TRACE', 'M-SEARCH') },
  ),
  path: fc.array(pathChar, { maxLength: 12 }).map((parts) => parts.join('')),
  headers: fc.array(fc.tuple(headerName, headerValue), { maxLength: 6 }),
  bodySize: fc.oneof(
    { weight: 4, arbitrary: fc.constant(0) },
    { weight: 6, arbitrary: fc.integer({ min: 1, max: 4_096 }) },
    { weight: 1, arbitrary: fc.integer({ min: 4_097, max: 600_000 }) },
  ),
  bodySeed: fc.integer({ min: 0, max: 1_000_000 }),
  send: fc.constantFrom('whole', 'whole', 'whole', 'whole', 'slow', 'truncated', 'garbage'),
  chunked: fc.boolean(),
});

function bodyOf(c: FuzzCase): Buffer {
  const seed = createHash('sha256').update(`body:${c.bodySeed}`).digest();
  const out = Buffer.alloc(c.bodySize);
  for (let i = 0; i < c.bodySize; i++) out[i] = (seed[i % 32] as number) ^ ((i * 31) & 0xff);
  return out;
}

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

function chunkedBody(body: Buffer): Buffer {
  const parts: Buffer[] = [];
  for (let at = 0; at < body.length; at += 16_384) {
    const piece = body.subarray(at, at + 16_384);
    parts.push(Buffer.from(`${piece.length.toString(16)}\r\n`), piece, Buffer.from('\r\n'));
  }
  parts.push(Buffer.from('0\r\n\r\n'));
  return Buffer.concat(parts);
}

/** The bytes of one case's request, and of its body alone. */
function requestBytes(c: FuzzCase, id: number): { head: Buffer; body: Buffer; wire: Buffer } {
  if (c.send === 'garbage') {
    const junk = createHash('sha512').update(`junk:${id}`).digest();
    return { head: Buffer.concat([junk, Buffer.from('\r\n\r\n')]), body: Buffer.alloc(0), wire: Buffer.alloc(0) };
  }
  const body = bodyOf(c);
  const sendsBody = body.length > 0 && c.method !== 'GET' && c.method !== 'HEAD';
  const framing = !sendsBody
    ? ''
    : c.chunked
      ? 'transfer-encoding: chunked\r\n'
      : `content-length: ${body.length + (c.send === 'truncated' ? 10 : 0)}\r\n`;
  const headers = c.headers.map(([n, v]) => `${n}: ${v}\r\n`).join('');
  const head = `${c.method} /${c.mode}/${c.path} HTTP/1.1\r\nhost: fuzz\r\nx-fuzz-id: ${id}\r\n${headers}${framing}\r\n`;
  const wire = !sendsBody ? Buffer.alloc(0) : c.chunked && c.send !== 'truncated' ? chunkedBody(body) : body;
  return { head: Buffer.from(head, 'latin1'), body: sendsBody ? body : Buffer.alloc(0), wire };
}

/** Runs `runs` cases from `seed` against a proxy process in front of the hostile upstream. */
export async function runProxyFuzz(options: {
  runs: number;
  seed?: number;
  concurrency?: number;
}): Promise<FuzzResult> {
  const seed = options.seed ?? defaultSeed;
  const started = performance.now();
  const upstream = await startHostileUpstream();
  const token = 'hostile-proxy-token';
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', fileURLToPath(new URL('proxy-child.ts', import.meta.url)), upstream.origin, token],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr.on('data', (d: Buffer) => (output = `${output}${d.toString()}`.slice(-20_000)));
  let exited = false;
  child.once('exit', () => (exited = true));
  const base = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`proxy did not start:\n${output}`)), 30_000);
    child.stdout.on('data', () => {
      const found = /Listening (\S+)/.exec(output)?.[1];
      if (found) {
        clearTimeout(timer);
        resolve(found);
      }
    });
  });
  const rss = () => {
    try {
      return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1]) / 1024;
    } catch {
      return Number.NaN;
    }
  };
  const heap = async () => {
    const seen = output.length;
    child.kill('SIGUSR2');
    for (let i = 0; i < 100; i++) {
      const found = /Memory heapUsed=(\d+)/.exec(output.slice(seen))?.[1];
      if (found) return Math.round((Number(found) / 1024 / 1024) * 10) / 10;
      await new Promise((r) => setTimeout(r, 50));
    }
    return Number.NaN;
  };
  const openFiles = () => {
    try {
      return readdirSync(`/proc/${child.pid}/fd`).length;
    } catch {
      return Number.NaN;
    }
  };
  const heapStartMiB = await heap();
  const filesStart = openFiles();
  const rssStartMiB = rss();
  let rssPeakMiB = rssStartMiB;
  const sampler = setInterval(() => {
    const now = rss();
    if (now > rssPeakMiB) rssPeakMiB = now;
  }, 100);
  const cases = fc.sample(fuzzCase, { seed, numRuns: options.runs });
  const outcomes: Record<string, number> = {};
  const altered: string[] = [];
  const count = (what: string) => (outcomes[what] = (outcomes[what] ?? 0) + 1);
  let next = 0;
  const worker = async () => {
    for (let id = next++; id < cases.length; id = next++) {
      const c = cases[id] as FuzzCase;
      const outcome = await exchange(base, c, id, upstream.received);
      count(outcome.kind);
      if (outcome.kind === 'altered')
        altered.push(`case ${id} ${JSON.stringify({ ...c, headers: c.headers.length })}: ${outcome.why}`);
    }
  };
  try {
    await Promise.all(Array.from({ length: options.concurrency ?? 16 }, worker));
    // Exchanges still ending (an upstream cut at a deadline) settle before memory is read: at most 10 s.
    for (let i = 0; i < 100 && openFiles() > filesStart + 8; i++) await new Promise((r) => setTimeout(r, 100));
    const heapAfterMiB = exited ? Number.NaN : await heap();
    const filesAfter = openFiles();
    const report = exited
      ? 0
      : await request(`${base}/_proxy/report`, { headers: { authorization: `Bearer ${token}` } })
          .then(async (res) => {
            JSON.parse(await res.body.text());
            return res.statusCode;
          })
          .catch(() => 0);
    return {
      seed,
      sent: cases.length,
      outcomes,
      altered,
      crashed: exited,
      reportStatus: report,
      rssStartMiB: Math.round(rssStartMiB * 10) / 10,
      rssPeakMiB: Math.round(rssPeakMiB * 10) / 10,
      heapStartMiB,
      heapAfterMiB,
      openFiles: { start: filesStart, after: filesAfter },
      seconds: Math.round((performance.now() - started) / 100) / 10,
    };
  } finally {
    clearInterval(sampler);
    child.kill('SIGKILL');
    await upstream.close();
  }
}

type Outcome =
  | { kind: 'upstream-answer' | 'proxy-answer' | 'proxy-not-envelope' | 'cut' }
  | { kind: 'altered'; why: string };

async function exchange(base: string, c: FuzzCase, id: number, received: Map<number, string>): Promise<Outcome> {
  const { head, body, wire } = requestBytes(c, id);
  const timeoutMs = c.mode === 'endless' ? 800 : 15_000;
  const headOnly = c.method === 'HEAD';
  let answer: Awaited<ReturnType<typeof rawExchange>>;
  if (c.send === 'slow' && wire.length > 0) {
    const third = Math.ceil(wire.length / 3);
    const pieces = [head, wire.subarray(0, third), wire.subarray(third, 2 * third), wire.subarray(2 * third)];
    answer = await slowExchange(base, pieces, { timeoutMs, head: headOnly });
  } else {
    // A whole request keeps its side open for the answer, as HTTP clients do (a close before it is giving up).
    const end = c.send !== 'whole';
    answer = await rawExchange(base, Buffer.concat([head, wire]), { timeoutMs, head: headOnly, end });
  }
  if (answer.status === undefined) return { kind: 'cut' };
  if (answer.headers['x-fuzz-upstream'] !== '1') {
    return isEnvelope(answer.body) || headOnly ? { kind: 'proxy-answer' } : { kind: 'proxy-not-envelope' };
  }
  // A HEAD's answer ends with its head: what an upstream writes after it is no part of it.
  if (headOnly) return answer.body.length === 0 ? { kind: 'upstream-answer' } : { kind: 'altered', why: 'HEAD body' };
  const expected = expectedAnswer(c.mode, id);
  if (expected === undefined) return { kind: 'altered', why: `a ${c.mode} answer arrived complete` };
  if (sha(answer.body) !== sha(expected))
    return { kind: 'altered', why: `answer body ${answer.body.length} bytes, sent ${expected.length}` };
  if ((c.send === 'whole' || c.send === 'slow') && received.get(id) !== sha(body))
    return { kind: 'altered', why: `request body digest at the upstream ${received.get(id) ?? 'missing'}` };
  return { kind: 'upstream-answer' };
}

/** Sends `pieces` on one connection 20 ms apart, then half-closes, and reads the answer. */
function slowExchange(base: string, pieces: readonly Buffer[], options: { timeoutMs: number; head: boolean }) {
  const { hostname, port } = new URL(base);
  const socket = connect({ host: hostname, port: Number(port) });
  socket.on('connect', async () => {
    for (const piece of pieces) {
      if (socket.destroyed) return;
      socket.write(piece);
      await new Promise((r) => setTimeout(r, 20));
    }
    if (!socket.destroyed) socket.end();
  });
  return readAnswer(socket, options);
}
