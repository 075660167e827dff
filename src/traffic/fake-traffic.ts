/**
 * Made-up traffic for the judge's tests: exchanges shaped as the proxy records them, built from a
 * method, a path, an answer and a time, with the account digest of a made-up key.
 */
import { accountOf, type TrafficExchange } from './traffic-exchange.ts';

export const origin = 'http://127.0.0.1:8787';
export const alice = accountOf('Bearer sk_test_alice_0001');
export const bob = accountOf('Bearer sk_test_bob_000002');

export interface FakeExchange {
  readonly method?: string;
  readonly path: string;
  readonly status: number;
  readonly json?: unknown;
  readonly body?: unknown;
  readonly headers?: Readonly<Record<string, string>>;
  readonly responseHeaders?: Readonly<Record<string, string>>;
  readonly bytes?: Buffer;
  /** Seconds from the start of the traffic when the request arrived; it ends 50 ms later. */
  readonly at: number;
  readonly account?: string;
  readonly partial?: boolean;
}

let seq = 0;

/** One exchange of the made-up traffic. */
export function fake(x: FakeExchange): TrafficExchange {
  const account = x.account ?? alice;
  const text = x.json === undefined ? '' : JSON.stringify(x.json);
  const bytes = x.bytes ?? Buffer.from(text);
  const startedAt = 1_764_000_000_000 + x.at * 1000;
  seq += 1;
  return {
    exchange: {
      seq,
      request: {
        method: x.method ?? 'GET',
        url: `${origin}${x.path}`,
        headers: {
          ...(account !== 'none' && { authorization: 'Bearer [key redacted]' }),
          ...(x.body !== undefined && { 'content-type': 'application/json' }),
          ...x.headers,
        },
        ...(x.body !== undefined && { body: JSON.stringify(x.body) }),
      },
      response: {
        status: x.status,
        headers: {
          ...(x.json !== undefined && { 'content-type': 'application/json' }),
          ...x.responseHeaders,
        },
        text,
        json: x.json,
        bytes,
        truncated: false,
        durationMs: 50,
      },
    },
    account,
    startedAt,
    endedAt: startedAt + 50,
    ...(x.partial === true && { partial: { request: false, response: true } }),
  };
}

const startBody = { personImageId: 'img_person01', garmentImageId: 'img_garment1', consent: true };

/** POST /tryons answered 200 pending with try-on `id`, under Idempotency-Key `key`. */
export function start(
  id: string,
  key: string,
  at: number,
  account = alice,
  body: unknown = startBody,
): TrafficExchange {
  return fake({
    method: 'POST',
    path: '/api/v1/tryons',
    status: 200,
    body,
    headers: { 'idempotency-key': key },
    json: { id, status: 'pending', pollUrl: `/api/v1/tryons/${id}` },
    at,
    account,
  });
}

/** GET /tryons/{id} answered 200 with `status` (and a resultUrl on success). */
export function poll(id: string, status: string, at: number, account = alice): TrafficExchange {
  const resultUrl = status === 'success' ? `${origin}/i/${id}.png` : null;
  return fake({
    path: `/api/v1/tryons/${id}`,
    status: 200,
    json: { id, status, resultUrl, ...(status === 'failed' && { message: 'The garment could not be placed.' }) },
    at,
    account,
  });
}

/** GET /account answered with `credits`. */
export function balance(credits: number, at: number, account = alice): TrafficExchange {
  return fake({ path: '/api/v1/account', status: 200, json: { credits }, at, account });
}
