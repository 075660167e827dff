/**
 * A mutating proxy: forwards every request to a real reference server and lets one mutation rewrite
 * the request on its way in or the response on its way out. Mutants live here, under tests/, so no
 * fault switch ever enters the product's code paths. Loopback only.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { Agent, request } from 'undici';
import type { RequirementId } from '../../src/spec/requirements.ts';

export interface ProxiedRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: Buffer;
}

export interface ProxiedResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

export interface Mutation {
  readonly name: string;
  readonly family: 'auth' | 'validation' | 'codes' | 'idempotency' | 'credits' | 'state' | 'limits' | 'results' | 'sync';
  /** The requirements the mutant breaks; the suite must fail at least one of them. */
  readonly breaks: readonly RequirementId[];
  /** Rewrites a request before it is forwarded, or answers it directly. */
  readonly request?: (req: ProxiedRequest, upstream: Upstream) => Promise<ProxiedRequest | ProxiedResponse> | ProxiedRequest | ProxiedResponse;
  /** Rewrites the upstream's answer. */
  readonly response?: (res: ProxiedResponse, req: ProxiedRequest, upstream: Upstream) => Promise<ProxiedResponse> | ProxiedResponse;
}

/** Lets a mutation talk to the real server itself (e.g. to send a request twice). */
export type Upstream = (req: ProxiedRequest) => Promise<ProxiedResponse>;

export interface MutatingProxy {
  readonly url: string;
  close(): Promise<void>;
}

const hopByHop = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'host', 'upgrade', 'te', 'trailer']);

export async function startMutatingProxy(upstreamOrigin: string, mutation: Mutation): Promise<MutatingProxy> {
  const agent = new Agent({ connections: 512, headersTimeout: 0, bodyTimeout: 0 });
  const upstream: Upstream = async (req) => {
    const res = await request(`${upstreamOrigin}${req.path}`, {
      method: req.method as 'GET',
      headers: req.headers,
      body: req.body.length > 0 || !['GET', 'HEAD'].includes(req.method) ? req.body : null,
      dispatcher: agent,
    });
    const body = Buffer.from(await res.body.arrayBuffer());
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(res.headers)) if (v !== undefined && !hopByHop.has(k)) headers[k] = Array.isArray(v) ? v.join(', ') : v;
    return { status: res.statusCode, headers, body };
  };
  let self = '';
  const server: Server = createServer(async (incoming, outgoing) => {
    try {
      const original = await read(incoming);
      const rewritten = mutation.request ? await mutation.request(original, upstream) : original;
      let res = 'status' in rewritten ? rewritten : rehost(await upstream(rewritten), upstreamOrigin, self);
      if (mutation.response && !('status' in rewritten)) res = await mutation.response(res, rewritten, upstream);
      outgoing.writeHead(res.status, { ...res.headers, 'content-length': String(res.body.length) });
      outgoing.end(res.body);
    } catch (error) {
      outgoing.writeHead(599).end(String(error));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('proxy did not listen');
  self = `http://127.0.0.1:${address.port}`;
  return {
    url: self,
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
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(incoming.headers)) if (v !== undefined && !hopByHop.has(k)) headers[k] = Array.isArray(v) ? v.join(', ') : v;
  return { method: incoming.method ?? 'GET', path: incoming.url ?? '/', headers, body: Buffer.concat(chunks) };
}

/** Result URLs name the server's own origin; through the proxy they must name the proxy's. */
function rehost(res: ProxiedResponse, from: string, to: string): ProxiedResponse {
  if (!/json/.test(res.headers['content-type'] ?? '')) return res;
  const text = res.body.toString('utf8');
  return text.includes(from) ? { ...res, body: Buffer.from(text.split(from).join(to)) } : res;
}
