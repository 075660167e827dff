/**
 * A mutating proxy: forwards every request to a real reference server and lets one mutation rewrite
 * the request on its way in or the response on its way out. Mutants live here, under tests/, so no
 * fault switch ever enters the product's code paths. Loopback only.
 *
 * Every exchange that passes through is also recorded in a `Traffic` (accounts and their keys, who
 * created which try-on and uploaded which image, Idempotency-Keys, the test clock), so that a mutant
 * can break one rule faithfully: e.g. "a revoked key still works" maps a revoked key to a live one.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { Readable } from 'node:stream';
import { Agent, request } from 'undici';
import type { RequirementId } from '../../src/contract/requirements.ts';
import { Traffic } from './traffic.ts';

export interface ProxiedRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: Buffer;
  /** Aborts when the client has gone away before its answer (only on requests that came from a client). */
  signal?: AbortSignal;
}

export interface ProxiedResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/** Lets a mutation talk to the real server itself (e.g. to send a request twice). */
export type Upstream = (req: ProxiedRequest) => Promise<ProxiedResponse>;

/** What the runner knows about the target behind the proxy. */
export interface MutantEnv {
  /** `http://127.0.0.1:<port>` of the real server. */
  readonly upstreamOrigin: string;
  /** `http://127.0.0.1:<port>` of the proxy itself (what clients see). */
  readonly proxyOrigin: string;
  /** The control token of the real server's test control. */
  readonly controlToken: string;
  /** `https://127.0.0.1:<port>/f`: the fixture host the server trusts. */
  readonly fixtureBaseUrl: string;
  /** PEM of the fixture host's self-signed certificate. */
  readonly fixtureCa: string;
}

/** Handed to every hook: the upstream, the environment, the traffic so far, and helpers. */
export interface MutantContext {
  readonly upstream: Upstream;
  readonly env: MutantEnv;
  readonly traffic: Traffic;
  /** A call to the real server's test control with the control token; throws unless 200. */
  control(method: string, path: string, json?: unknown): Promise<any>;
  /** The balance of an account, read with its current key from GET /api/v1/account (undefined if unreadable). */
  balance(accountId: string): Promise<number | undefined>;
  /** Moves an account's balance by `delta` (never below 0) through test control; returns the new balance. */
  adjustCredits(accountId: string, delta: number): Promise<number | undefined>;
}

export type Family =
  | 'auth'
  | 'validation'
  | 'codes'
  | 'idempotency'
  | 'credits'
  | 'state'
  | 'limits'
  | 'results'
  | 'sync';

/**
 * The class of bug a mutant stands for, for the score per class, or else the mutant's family:
 * - `scoping`: a rule the spec keeps per account kept per key or globally;
 * - `retrying-clients`: a Retry-After a client that waits it cannot honour;
 * - `asynchrony`: a create that answers only once the generation is over;
 * - `history`: state changed after first use (a revoked key, a raised limit) that a cache or memo outlives;
 * - `remembered-verdicts`: an outcome remembered by too little (a prefix, another account);
 * - `concurrency`: several requests at once (two held syncs, mixed latencies, shared deadlines);
 * - `rare-branches`: a branch the spec names that common traffic never takes (a 503 start, a busy decoder);
 * - `parsing`: text matched where the spec asks for it to be read (the machine-readable AI label);
 * - `address-forms`: an address written in a form that hides what it is (NAT64, IPv4-mapped);
 * - `client-rules`: the typed client's own rules (retries, timeouts, the browser guard).
 */
export type MutantClass =
  | Family
  | 'scoping'
  | 'retrying-clients'
  | 'asynchrony'
  | 'history'
  | 'remembered-verdicts'
  | 'concurrency'
  | 'rare-branches'
  | 'parsing'
  | 'address-forms'
  | 'client-rules';

/** A mutant's class: the one it names, or its family. */
export const classOf = (m: { readonly family: Family; readonly class?: MutantClass }): MutantClass =>
  m.class ?? m.family;

export interface Mutation {
  readonly name: string;
  readonly family: Family;
  /** The class of bug, when it is not the family (see `MutantClass`). */
  readonly class?: MutantClass;
  /** The requirements the mutant breaks (one rule; several IDs only where the catalogue states that rule more than once). */
  readonly breaks: readonly RequirementId[];
  /** One line: what the mutant does to the real server's behaviour. */
  readonly does?: string;
  /** Rewrites a request before it is forwarded, or answers it directly. */
  readonly request?: (
    req: ProxiedRequest,
    ctx: MutantContext,
  ) => Promise<ProxiedRequest | ProxiedResponse> | ProxiedRequest | ProxiedResponse;
  /** Rewrites the upstream's answer. May hold it (a promise that settles late, or when `req.signal` aborts). */
  readonly response?: (
    res: ProxiedResponse,
    req: ProxiedRequest,
    ctx: MutantContext,
  ) => Promise<ProxiedResponse> | ProxiedResponse;
}

/** What the proxy plays: a mutant's hooks, or a conforming variant's (tests/variants). */
export type ProxyHooks = Pick<Mutation, 'request' | 'response'>;

export interface MutatingProxy {
  readonly url: string;
  readonly traffic: Traffic;
  /** Exceptions thrown by the mutation or the proxy itself (answered 599): a mutant with faults is suspect. */
  readonly faults: readonly string[];
  close(): Promise<void>;
}

const hopByHop = new Set([
  'connection',
  'keep-alive',
  'transfer-encoding',
  'content-length',
  'host',
  'upgrade',
  'te',
  'trailer',
]);

const isResponse = (x: ProxiedRequest | ProxiedResponse): x is ProxiedResponse => 'status' in x;

export async function startMutatingProxy(
  upstreamOrigin: string,
  mutation: ProxyHooks,
  env: Omit<MutantEnv, 'upstreamOrigin' | 'proxyOrigin'>,
): Promise<MutatingProxy> {
  const agent = new Agent({ connections: 512, headersTimeout: 0, bodyTimeout: 0 });
  // `flowing`: the body as it comes from the client, instead of `req.body`.
  const raw = async (req: ProxiedRequest, flowing?: Flowing): Promise<ProxiedResponse> => {
    const buffered = req.body.length > 0 || !['GET', 'HEAD'].includes(req.method) ? req.body : null;
    const res = await request(`${upstreamOrigin}${req.path}`, {
      method: req.method as 'GET',
      headers: flowing?.length === undefined ? req.headers : { ...req.headers, 'content-length': flowing.length },
      body: flowing ? Readable.from(flowing.chunks) : buffered,
      dispatcher: agent,
    });
    const body = Buffer.from(await res.body.arrayBuffer());
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(res.headers))
      if (v !== undefined && !hopByHop.has(k)) headers[k] = Array.isArray(v) ? v.join(', ') : v;
    return { status: res.statusCode, headers, body };
  };
  // What a mutation gets from the upstream names the proxy's origin, like what the client gets.
  const upstream: Upstream = async (req) => rehost(await raw(req), upstreamOrigin, fullEnv.proxyOrigin);
  const traffic = new Traffic();
  const faults: string[] = [];
  const fullEnv: { -readonly [K in keyof MutantEnv]: MutantEnv[K] } = { ...env, upstreamOrigin, proxyOrigin: '' };
  const ctx: MutantContext = {
    upstream,
    env: fullEnv,
    traffic,
    async control(method, path, json) {
      const res = await upstream({
        method,
        path: `/_control${path}`,
        headers: {
          authorization: `Bearer ${env.controlToken}`,
          ...(json !== undefined && { 'content-type': 'application/json' }),
        },
        body: json === undefined ? Buffer.alloc(0) : Buffer.from(JSON.stringify(json)),
      });
      if (res.status !== 200)
        throw new Error(`control ${method} ${path}: ${res.status} ${res.body.toString('utf8').slice(0, 200)}`);
      return JSON.parse(res.body.toString('utf8'));
    },
    async balance(accountId) {
      const key = traffic.currentKeyOf(accountId);
      if (key === undefined) return undefined;
      const res = await upstream({
        method: 'GET',
        path: '/api/v1/account',
        headers: { authorization: `Bearer ${key}` },
        body: Buffer.alloc(0),
      });
      const credits =
        res.status === 200 ? (JSON.parse(res.body.toString('utf8')) as { credits?: unknown }).credits : undefined;
      return typeof credits === 'number' ? credits : undefined;
    },
    async adjustCredits(accountId, delta) {
      const now = await ctx.balance(accountId);
      if (now === undefined) return undefined;
      const next = Math.max(0, now + delta);
      await ctx.control('PUT', `/accounts/${accountId}/credits`, { credits: next });
      return next;
    },
  };

  const server: Server = createServer(async (incoming, outgoing) => {
    const gone = new AbortController();
    outgoing.once('close', () => {
      if (!outgoing.writableFinished) gone.abort();
    });
    try {
      // With no hook to read the request, its body goes on as it comes: a slow sender stays slow at the server.
      const flowing = !mutation.request && !mutation.response && hasBody(incoming) ? flow(incoming) : undefined;
      const original = { ...(flowing ? headOf(incoming) : await read(incoming)), signal: gone.signal };
      const rewritten = mutation.request ? await mutation.request(original, ctx) : original;
      let res = isResponse(rewritten)
        ? rewritten
        : rehost(await raw(rewritten, flowing), upstreamOrigin, fullEnv.proxyOrigin);
      if (mutation.response && !isResponse(rewritten)) res = await mutation.response(res, rewritten, ctx);
      traffic.observe(flowing ? { ...original, body: flowing.received() } : original, res);
      if (outgoing.destroyed || gone.signal.aborted) return;
      outgoing.writeHead(res.status, { ...res.headers, 'content-length': String(res.body.length) });
      outgoing.end(res.body);
    } catch (error) {
      faults.push(`${incoming.method} ${incoming.url}: ${(error as Error).stack ?? String(error)}`);
      if (!outgoing.headersSent && !outgoing.destroyed) outgoing.writeHead(599).end(String(error));
    }
  });
  // Node closes idle keep-alive sockets after 5 s; on a loaded machine the suite's client sometimes
  // reuses one just as it closes and gets EPIPE mid-request, which it rightly counts as "no answer"
  // (seen on the decompression-bomb upload). The proxy is test equipment: keep its sockets longer.
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('proxy did not listen');
  fullEnv.proxyOrigin = `http://127.0.0.1:${address.port}`;
  return {
    url: fullEnv.proxyOrigin,
    traffic,
    faults,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await agent.close();
    },
  };
}

async function read(incoming: IncomingMessage): Promise<ProxiedRequest> {
  const chunks: Buffer[] = [];
  for await (const chunk of incoming) chunks.push(chunk as Buffer);
  return { ...headOf(incoming), body: Buffer.concat(chunks) };
}

/** A request's method, path and end-to-end headers, its body not read yet. */
function headOf(incoming: IncomingMessage): ProxiedRequest {
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(incoming.headers))
    if (v !== undefined && !hopByHop.has(k)) headers[k] = Array.isArray(v) ? v.join(', ') : v;
  return { method: incoming.method ?? 'GET', path: incoming.url ?? '/', headers, body: Buffer.alloc(0) };
}

/** A request body passed on as it comes, and kept for the traffic record. */
interface Flowing {
  readonly chunks: AsyncIterable<Buffer>;
  /** The declared length, passed on with the body. */
  readonly length: string | undefined;
  /** What has come so far. */
  received(): Buffer;
}

const hasBody = (incoming: IncomingMessage): boolean =>
  incoming.headers['transfer-encoding'] !== undefined || Number(incoming.headers['content-length'] ?? 0) > 0;

function flow(incoming: IncomingMessage): Flowing {
  const kept: Buffer[] = [];
  async function* chunks(): AsyncGenerator<Buffer> {
    // An upstream that answers before the whole body came stops reading it; the client's socket stays for that answer.
    for await (const chunk of incoming.iterator({ destroyOnReturn: false })) {
      kept.push(chunk as Buffer);
      yield chunk as Buffer;
    }
  }
  return { chunks: chunks(), length: incoming.headers['content-length'], received: () => Buffer.concat(kept) };
}

/** Result URLs name the server's own origin; through the proxy they must name the proxy's. */
function rehost(res: ProxiedResponse, from: string, to: string): ProxiedResponse {
  if (!/json/.test(res.headers['content-type'] ?? '')) return res;
  const text = res.body.toString('utf8');
  return text.includes(from) ? { ...res, body: Buffer.from(text.split(from).join(to)) } : res;
}
