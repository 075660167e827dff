/**
 * A hostile target that speaks enough of the API to get a run past its preflight (a keyless GET
 * /tryons/{id} gives 401 in the envelope, the run's key is accepted, GET /account answers 200) and
 * then writes hostile-payloads.ts into every string and header it can: `error` and `code` of every
 * error (401, one 429, 404, 405), ids, GET /account field names, an extra `note` in every answer
 * (the 1 MB string in 404, 405 and GET /tryons/{id}), a sync 202 whose `pollUrl` and a success
 * whose `resultUrl` are on the canary (another origin), and Retry-After, Content-Type, RateLimit
 * and other headers.
 * The create's `pollUrl` and the uploads' `expiresAt` stay valid, so that a run gets as far as the
 * resultUrl. With `deep`, GET /account and every other JSON answer carry an array 200,000 levels deep.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { deepArrayJson, hostilePayloads, type HostilePayloads, type PayloadAims } from './hostile-payloads.ts';

export interface HostileTargetOptions extends PayloadAims {
  /** The one key it accepts; every other request gets 401 (with a hostile `code`). */
  readonly apiKey: string;
  /** Deep JSON in GET /account and in every other JSON answer. */
  readonly deep?: boolean;
}

export interface HostileTarget {
  /** `http://127.0.0.1:<port>/api/v1`. */
  readonly baseUrl: string;
  readonly origin: string;
  /** Every request it got, as `METHOD url`. */
  readonly requests: () => readonly string[];
  close(): Promise<void>;
}

const prefix = '/api/v1';

/** Starts the hostile target on 127.0.0.1, an ephemeral port. */
export async function startHostileTarget(o: HostileTargetOptions): Promise<HostileTarget> {
  const payloads = hostilePayloads(o);
  const answer = answerer(o, payloads);
  const seen: string[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    req.resume();
    req.once('end', () => answer(req, res));
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('hostile target did not listen');
  const origin = `http://127.0.0.1:${address.port}`;
  return {
    baseUrl: `${origin}${prefix}`,
    origin,
    requests: () => [...seen],
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

type Answer = (req: IncomingMessage, res: ServerResponse) => void;

/** The routes: who is refused, what each operation answers. */
function answerer(o: HostileTargetOptions, p: HostilePayloads): Answer {
  const send = sender(o, p);
  const canary = o.canaryOrigin;
  const tryonId = `ton_${p.short}`;
  const resultUrl = `${canary}/i/result.png?${p.short}`;
  const expiresAt = () => new Date(Date.now() + 86_400_000).toISOString();
  let rateLimitedOnce = false;
  return (req, res) => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const method = req.method ?? 'GET';
    if (req.headers.authorization !== `Bearer ${o.apiKey}`) return send(res, 401, { error: p.short, code: p.short });
    if (path === `${prefix}/account`) {
      if (method !== 'GET') return send(res, 405, { error: p.huge, code: p.short });
      // Two numeric fields named like a balance: the run cannot tell which, and says so with their names.
      return send(res, 200, { credits: 8, [p.fieldName]: 9, note: p.short }, 'account');
    }
    if (path === `${prefix}/images`) {
      if (method !== 'POST') return send(res, 405, { error: p.huge, code: p.short });
      return send(res, 200, { id: `img_${p.short}`, expiresAt: expiresAt(), note: p.short });
    }
    if (path === `${prefix}/tryons` || path === `${prefix}/tryons/sync`) {
      if (method !== 'POST') return send(res, 405, { error: p.huge, code: p.short });
      if (!rateLimitedOnce) {
        rateLimitedOnce = true;
        return send(res, 429, { error: p.short, code: p.short });
      }
      // The sync wait ends in a 202 whose pollUrl names the canary: a URL to record, never to follow.
      if (path.endsWith('/sync')) {
        const foreign = `${canary}${prefix}/tryons/${tryonId}`;
        return send(res, 202, { id: tryonId, status: 'pending', pollUrl: foreign, note: p.short });
      }
      return send(res, 200, { id: tryonId, status: 'pending', pollUrl: `${prefix}/tryons/${tryonId}`, note: p.short });
    }
    const read = new RegExp(`^${prefix}/tryons/([^/]+)$`).exec(path);
    if (read?.[1] !== undefined) {
      if (method !== 'GET') return send(res, 405, { error: p.huge, code: p.short });
      // A success whose resultUrl is on the canary, with target text in its query.
      return send(res, 200, { id: safeDecode(read[1]), status: 'success', resultUrl, note: p.huge });
    }
    return send(res, 404, { error: p.huge, code: p.short });
  };
}

type Send = (res: ServerResponse, status: number, body: Record<string, unknown>, what?: 'account') => void;

/** Writes a JSON answer with hostile headers; with `deep`, the body carries deep JSON too. */
function sender(o: HostileTargetOptions, p: HostilePayloads): Send {
  const deep = o.deep ? deepArrayJson() : undefined;
  const headers = {
    'content-type': `application/json; charset=utf-8; note="${p.header}"`,
    'retry-after': p.header,
    ratelimit: `limit=60, remaining=0, reset=${p.header}`,
    'ratelimit-policy': `60;w=60;comment="${p.header}"`,
    'x-request-id': p.header,
    link: `<${o.canaryOrigin}/link.png>; rel=preload; as=image`,
    'x-hostile': p.header,
  };
  return (res, status, body, what) => {
    let text = JSON.stringify(body);
    // JSON.stringify cannot write deep JSON (it recurses), so it is spliced in as text.
    if (deep !== undefined) {
      text = what === 'account' ? `{"credits":8,"deep":${deep}}` : `${text.slice(0, -1)},"deep":${deep}}`;
    }
    res.writeHead(status, { ...headers, 'content-length': Buffer.byteLength(text) });
    res.end(text);
  };
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
