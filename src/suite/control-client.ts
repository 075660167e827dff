/** A small client of the test-control extension (openapi-control.yaml). */
import type { Send } from '../client/http-client.ts';

export interface ControlClient {
  createAccount(): Promise<{ accountId: string; apiKey: string; credits: number }>;
  rotateKey(accountId: string): Promise<string>;
  revokeKey(accountId: string): Promise<void>;
  setCredits(accountId: string, credits: number): Promise<void>;
  setLimits(
    accountId: string,
    limits: Partial<Record<'startsPerMinute' | 'pollsPerMinute' | 'uploadsPerMinute', number>>,
  ): Promise<void>;
  advanceClock(seconds: number): Promise<void>;
  settings(): Promise<ControlSettings>;
  /**
   * The resolver convention: from now on `name` (under `.test`) resolves to `addresses` in the target's
   * image fetcher.
   */
  setNameAnswers(name: string, addresses: readonly string[]): Promise<void>;
}

export interface ControlSettings {
  /** The server clock, ISO 8601. */
  readonly now?: string;
  readonly syncWaitMs: number;
  readonly generationLatencyMs: number;
  readonly slowGenerationMs: number;
  readonly fetchTimeoutMs?: number;
  readonly limits: {
    readonly startsPerMinute: number;
    readonly pollsPerMinute: number;
    readonly uploadsPerMinute: number;
  };
}

let clockMoves = 0;

/** How many times the run has moved the target's clock: anything cached across a move may have expired. */
export function clockEpoch(): number {
  return clockMoves;
}

/** Test control answered something other than what openapi-control.yaml describes: a setup problem of the run. */
export class ControlError extends Error {
  override readonly name = 'ControlError';
  /** The status test control answered, when it answered. */
  readonly status: number | undefined;
  constructor(message: string, status?: number) {
    super(message);
    this.status = status;
  }
}

/** The settings body must carry what the run reads from it (openapi-control.yaml, ControlSettings). */
function checkedSettings(json: unknown): ControlSettings {
  const s = json as Partial<ControlSettings> | undefined;
  const n = (v: unknown): boolean => typeof v === 'number' && Number.isFinite(v);
  if (
    typeof s !== 'object' ||
    s === null ||
    !n(s.syncWaitMs) ||
    !n(s.slowGenerationMs) ||
    typeof s.limits !== 'object' ||
    s.limits === null
  ) {
    throw new ControlError(
      `test control GET /settings answered without syncWaitMs, slowGenerationMs and limits: ${JSON.stringify(json)?.slice(0, 160) ?? 'no JSON'}`,
    );
  }
  return s as ControlSettings;
}

export function controlClient(send: Send, url: string, token: string): ControlClient {
  const call = async (method: string, path: string, json?: unknown): Promise<any> => {
    const ex = await send({ method, path: `${url}${path}`, key: token, ...(json !== undefined && { json }) });
    if (ex.response?.status !== 200)
      throw new ControlError(
        `test control ${method} ${path} answered ${ex.response ? `${ex.response.status} ${ex.response.text.slice(0, 120)}` : ex.error}`,
        ex.response?.status,
      );
    return ex.response.json;
  };
  return {
    createAccount: async () => {
      const made = await call('POST', '/accounts');
      if (typeof made?.accountId !== 'string' || typeof made?.apiKey !== 'string') {
        throw new ControlError(
          `test control POST /accounts answered without accountId and apiKey: ${JSON.stringify(made)?.slice(0, 160) ?? 'no JSON'}`,
        );
      }
      return made;
    },
    rotateKey: async (id) => (await call('POST', `/accounts/${id}/rotate-key`)).apiKey,
    revokeKey: async (id) => void (await call('POST', `/accounts/${id}/revoke-key`)),
    setCredits: async (id, credits) => void (await call('PUT', `/accounts/${id}/credits`, { credits })),
    setLimits: async (id, limits) => void (await call('PUT', `/accounts/${id}/limits`, limits)),
    advanceClock: async (seconds) => {
      await call('POST', '/clock/advance', { seconds });
      clockMoves++;
    },
    settings: async () => checkedSettings(await call('GET', '/settings')),
    setNameAnswers: async (name, addresses) =>
      void (await call('PUT', `/names/${encodeURIComponent(name)}`, { addresses })),
  };
}
