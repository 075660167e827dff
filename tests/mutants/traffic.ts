/**
 * What the mutating proxy has seen pass through: accounts and their keys (from test control), who
 * created which try-on and uploaded which image, Idempotency-Keys, last statuses, the limits the
 * suite asked for, and the offset of the server's test clock. Recorded from the client's request
 * and the answer the client got.
 */
import { documentedLimits as limits } from '../../src/contract/rate-limits.ts';
import type { ProxiedRequest, ProxiedResponse } from './mutating-proxy.ts';

export interface Limits {
  startsPerMinute: number;
  pollsPerMinute: number;
  uploadsPerMinute: number;
}

export interface TryOnSeen {
  readonly id: string;
  /** The key that created it (the client's, before any mutation). */
  readonly key: string;
  readonly accountId: string | undefined;
  /** The last status any answer showed. */
  status: string;
}

export interface UploadSeen {
  readonly id: string;
  readonly key: string;
  /** When it was uploaded, on the server's clock. */
  readonly at: number;
  /** The client's upload request, so that it can be sent again. */
  readonly request: ProxiedRequest;
}

export const documentedLimits: Limits = {
  startsPerMinute: limits.starts,
  pollsPerMinute: limits.polls,
  uploadsPerMinute: limits.uploads,
};

/** The API key of a request, from `Authorization: Bearer <key>`. */
export function keyOf(req: ProxiedRequest): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
  return match?.[1];
}

export function jsonOf(buf: Buffer): any {
  try {
    return JSON.parse(buf.toString('utf8'));
  } catch {
    return undefined;
  }
}

const controlAccount = /^\/_control\/accounts\/([^/]+)\/(rotate-key|revoke-key|limits|credits)$/;
export const createPath = /^\/api\/v1\/tryons(\/sync)?\/?(\?.*)?$/;
export const getPath = /^\/api\/v1\/tryons\/([^/?]+)(\?.*)?$/;

export class Traffic {
  readonly #accountOfKey = new Map<string, string>();
  readonly #currentKey = new Map<string, string>();
  /** Keys revoked with POST /_control/accounts/{id}/revoke-key. */
  readonly revoked = new Set<string>();
  /** Keys replaced by rotate-key: old → new. */
  readonly rotated = new Map<string, string>();
  readonly tryOns = new Map<string, TryOnSeen>();
  readonly uploads = new Map<string, UploadSeen>();
  /** `<api key>\0<Idempotency-Key>` → try-on id. */
  readonly idempotency = new Map<string, string>();
  /** Limits the suite asked test control for, per account (absent: the server's defaults). */
  readonly limits = new Map<string, Limits>();
  defaultLimits: Limits = { ...documentedLimits };
  /** The server clock minus real time, as the last control answer showed it. */
  clockOffsetMs = 0;
  /** Accounts in creation order. */
  readonly accounts: string[] = [];
  /** The first key the API answered with a 2xx: the run's own, whose account may have been made out of sight. */
  firstAnsweredKey: string | undefined;

  accountOf(key: string | undefined): string | undefined {
    return key === undefined ? undefined : this.#accountOfKey.get(key);
  }

  currentKeyOf(accountId: string): string | undefined {
    return this.#currentKey.get(accountId);
  }

  /** The key is an account's live key (not revoked, not rotated away). */
  isLive(key: string | undefined): key is string {
    const account = this.accountOf(key);
    return account !== undefined && this.#currentKey.get(account) === key && !this.revoked.has(key as string);
  }

  limitsOf(accountId: string): Limits {
    return this.limits.get(accountId) ?? this.defaultLimits;
  }

  /** The server's clock, as far as the proxy can tell. */
  now(): number {
    return Date.now() + this.clockOffsetMs;
  }

  observe(req: ProxiedRequest, res: ProxiedResponse): void {
    const path = req.path.split('?')[0] ?? '';
    const body = /json/.test(res.headers['content-type'] ?? '') ? jsonOf(res.body) : undefined;
    if (path.startsWith('/_control')) return this.#observeControl(req, path, res, body);
    const key = keyOf(req);
    if (
      key &&
      this.firstAnsweredKey === undefined &&
      path.startsWith('/api/v1/') &&
      res.status >= 200 &&
      res.status < 300
    )
      this.firstAnsweredKey = key;
    if (
      req.method === 'POST' &&
      createPath.test(path) &&
      (res.status === 200 || res.status === 202) &&
      typeof body?.id === 'string' &&
      key
    ) {
      if (!this.tryOns.has(body.id))
        this.tryOns.set(body.id, { id: body.id, key, accountId: this.accountOf(key), status: String(body.status) });
      else this.tryOns.get(body.id)!.status = String(body.status);
      const idem = req.headers['idempotency-key'];
      if (idem !== undefined) this.idempotency.set(`${key}\0${idem}`, body.id);
    }
    const read = getPath.exec(path);
    if (req.method === 'GET' && read && res.status === 200 && typeof body?.status === 'string') {
      const seen = this.tryOns.get(decodeURIComponent(read[1] ?? ''));
      if (seen) seen.status = body.status;
    }
    if (
      req.method === 'POST' &&
      path === '/api/v1/images' &&
      res.status === 200 &&
      typeof body?.id === 'string' &&
      key
    ) {
      this.uploads.set(body.id, {
        id: body.id,
        key,
        at: this.now(),
        request: { method: req.method, path: req.path, headers: { ...req.headers }, body: req.body },
      });
    }
  }

  #observeControl(req: ProxiedRequest, path: string, res: ProxiedResponse, body: any): void {
    if (res.status !== 200 || typeof body !== 'object' || body === null) return;
    if (typeof body.now === 'string' && Number.isFinite(Date.parse(body.now)))
      this.clockOffsetMs = Date.parse(body.now) - Date.now();
    if (path === '/_control/settings' && body.limits) this.defaultLimits = { ...documentedLimits, ...body.limits };
    if (req.method === 'POST' && path === '/_control/accounts' && typeof body.apiKey === 'string') {
      this.#accountOfKey.set(body.apiKey, body.accountId);
      this.#currentKey.set(body.accountId, body.apiKey);
      this.accounts.push(body.accountId);
      return;
    }
    const match = controlAccount.exec(path);
    if (!match) return;
    const accountId = match[1] ?? '';
    const current = this.#currentKey.get(accountId);
    switch (match[2]) {
      case 'rotate-key':
        if (typeof body.apiKey !== 'string') return;
        if (current) this.rotated.set(current, body.apiKey);
        this.#accountOfKey.set(body.apiKey, accountId);
        this.#currentKey.set(accountId, body.apiKey);
        return;
      case 'revoke-key':
        if (current) this.revoked.add(current);
        return;
      case 'limits': {
        const asked = jsonOf(req.body) ?? {};
        const next = { ...this.limitsOf(accountId) };
        for (const name of ['startsPerMinute', 'pollsPerMinute', 'uploadsPerMinute'] as const)
          if (typeof asked[name] === 'number') next[name] = asked[name];
        this.limits.set(accountId, next);
        return;
      }
      default:
        return;
    }
  }
}
