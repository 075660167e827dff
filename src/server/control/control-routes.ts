/**
 * The test-control extension (described in openapi-control.yaml).
 * Off /api/v1, and registered only when a control token is configured. Like Stripe's test helpers:
 * accounts with their first key, key rotation and revocation, credits, per-account limits, the
 * clock, the server's settings, and what `.test` host names resolve to.
 */
import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../api-errors.ts';
import { bearerToken, issueKey } from '../domain/api-keys.ts';
import { isTestNameAnswer, maxTestNameAnswers, testName } from '../domain/image-fetch/test-names.ts';
import type { ServerContext } from '../routes/context.ts';
import type { AccountLimits } from '../store/store.ts';
import { oneAtATime } from './one-at-a-time.ts';

export const controlPrefix = '/_control';

type AccountParams = { Params: { accountId: string } };
type NameParams = { Params: { name: string } };

export function controlRoutes(app: FastifyInstance, ctx: ServerContext, token: string): void {
  const expected = Buffer.from(token);
  const guard = async (request: { headers: { authorization?: string | undefined } }) => {
    const presented = Buffer.from(bearerToken(request.headers.authorization) ?? '');
    if (presented.length !== expected.length || !timingSafeEqual(presented, expected)) {
      throw new ApiError('INVALID_API_KEY', 'Missing or wrong control token.');
    }
  };
  const account = async (id: string): Promise<string> => {
    if (!(await ctx.store.accountExists(id))) throw new ApiError('NOT_FOUND', 'No account with that id.');
    return id;
  };
  const opts = { onRequest: guard };
  // A limits update reads the account's limits and writes them merged: one at a time per account.
  const perAccount = oneAtATime();

  app.post(`${controlPrefix}/accounts`, opts, async () => {
    const now = ctx.clock.now();
    const accountId = await ctx.store.createAccount(now, ctx.settings.freeCredits);
    const key = issueKey();
    await ctx.store.replaceKey(accountId, key.lookupId, key.hash, now);
    return { accountId, apiKey: key.key, credits: await ctx.store.balance(accountId) };
  });

  app.post<AccountParams>(`${controlPrefix}/accounts/:accountId/rotate-key`, opts, async (request) => {
    const id = await account(request.params.accountId);
    const key = issueKey();
    // Spec (Authentication 3): only the first key adds credits; a new one adds none.
    await ctx.store.replaceKey(id, key.lookupId, key.hash, ctx.clock.now());
    return { accountId: id, apiKey: key.key };
  });

  app.post<AccountParams>(`${controlPrefix}/accounts/:accountId/revoke-key`, opts, async (request) => {
    const id = await account(request.params.accountId);
    await ctx.store.revokeKeys(id, ctx.clock.now());
    return { accountId: id, revoked: true };
  });

  app.put<AccountParams>(`${controlPrefix}/accounts/:accountId/credits`, opts, async (request) => {
    const id = await account(request.params.accountId);
    const credits = objectBody(request.body).credits;
    if (!Number.isSafeInteger(credits) || (credits as number) < 0 || (credits as number) > controlBounds.maxCredits) {
      throw new ApiError('INVALID_REQUEST', `credits must be an integer from 0 to ${controlBounds.maxCredits}.`);
    }
    await ctx.store.setCredits(id, credits as number, ctx.clock.now());
    return { accountId: id, credits: await ctx.store.balance(id) };
  });

  app.put<AccountParams>(`${controlPrefix}/accounts/:accountId/limits`, opts, async (request) => {
    const id = await account(request.params.accountId);
    return perAccount(id, async () => {
      // Limits stored before the storage quota existed lack it: the server's fills in.
      const limits = parseLimits(request.body, { ...ctx.settings.limits, ...(await ctx.store.limitsOf(id)) });
      await ctx.store.setLimits(id, limits);
      return { accountId: id, limits };
    });
  });

  app.post(`${controlPrefix}/clock/advance`, opts, async (request) => {
    const seconds = objectBody(request.body).seconds;
    const headroomSeconds = Math.floor(ctx.clock.headroomMs() / 1000);
    const most = Math.min(controlBounds.maxAdvanceSeconds, headroomSeconds);
    if (typeof seconds !== 'number' || !Number.isFinite(seconds) || seconds < 0 || seconds > most) {
      throw new ApiError(
        'INVALID_REQUEST',
        `seconds must be a number from 0 to ${most} (at most ${controlBounds.maxAdvanceSeconds} per call, and never past the end of year 9999).`,
      );
    }
    const now = await ctx.clock.advance(seconds * 1000);
    await ctx.sweep();
    return { now: new Date(now).toISOString() };
  });

  // The resolver convention: per server, like DNS (names are random per test, so runs never collide).
  app.put<NameParams>(`${controlPrefix}/names/:name`, opts, async (request) => {
    const names = ctx.testNames;
    if (!names) throw new ApiError('NOT_FOUND');
    const name = testName(request.params.name);
    if (name === undefined)
      throw new ApiError(
        'INVALID_REQUEST',
        'name must be a well-formed DNS name under .test (RFC 6761), e.g. img-4kq9.test.',
      );
    const addresses = parseAnswers(request.body);
    await names.set(name, addresses);
    return { name, addresses };
  });

  app.get(`${controlPrefix}/settings`, opts, async () => ({
    now: new Date(ctx.clock.now()).toISOString(),
    syncWaitMs: ctx.settings.syncWaitMs,
    generationLatencyMs: ctx.settings.generationLatencyMs,
    slowGenerationMs: ctx.settings.slowGenerationMs,
    fetchTimeoutMs: ctx.settings.fetchTimeoutMs,
    maxImageBytes: ctx.settings.maxImageBytes,
    maxPixels: ctx.settings.maxPixels,
    limits: ctx.settings.limits,
    freeCredits: ctx.settings.freeCredits,
    imageIdTtlSeconds: ctx.settings.imageIdTtlMs / 1000,
    resultTtlSeconds: ctx.settings.resultTtlMs / 1000,
    idempotencyRetentionSeconds: ctx.settings.idempotencyRetentionMs / 1000,
    recordRetentionSeconds: ctx.settings.recordRetentionMs / 1000,
    trustedFixtureOrigin: ctx.trustedOrigin?.origin ?? null,
  }));
}

/**
 * Bounds of the control extension's input (openapi-control.yaml): out of range is 400
 * INVALID_REQUEST, and a refused call changes nothing.
 */
export const controlBounds = Object.freeze({
  /** Credits an account may be set to. */
  maxCredits: 1_000_000_000,
  /** A per-minute limit (the limiter's memory follows real traffic, not the limit). */
  maxLimitPerMinute: 1_000_000_000,
  /** An account's storage quota of live uploads, in bytes: 0 (no uploads) to 1 TiB. */
  maxUploadQuotaBytes: 2 ** 40,
  /** One clock move: 100 years. */
  maxAdvanceSeconds: 100 * 366 * 24 * 3600,
});

function objectBody(body: unknown): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw new ApiError('INVALID_REQUEST', 'Send a JSON object.');
  return body as Record<string, unknown>;
}

function parseAnswers(body: unknown): string[] {
  const addresses = objectBody(body).addresses;
  if (!Array.isArray(addresses) || addresses.length === 0 || addresses.length > maxTestNameAnswers) {
    throw new ApiError('INVALID_REQUEST', `addresses must be an array of 1 to ${maxTestNameAnswers} IP addresses.`);
  }
  for (const address of addresses) {
    if (typeof address !== 'string' || !isTestNameAnswer(address)) {
      throw new ApiError(
        'INVALID_REQUEST',
        `${JSON.stringify(address)?.slice(0, 80) ?? String(address)} is not a private, loopback, reserved or documentation address written plainly: a name may only resolve to those.`,
      );
    }
  }
  return addresses as string[];
}

// Every field is checked before any is applied.
function parseLimits(body: unknown, current: AccountLimits): AccountLimits {
  const fields = objectBody(body);
  const next = { ...current };
  for (const name of ['startsPerMinute', 'pollsPerMinute', 'uploadsPerMinute'] as const) {
    const value = fields[name];
    if (value === undefined) continue;
    if (!Number.isSafeInteger(value) || (value as number) < 1 || (value as number) > controlBounds.maxLimitPerMinute) {
      throw new ApiError('INVALID_REQUEST', `${name} must be an integer from 1 to ${controlBounds.maxLimitPerMinute}.`);
    }
    next[name] = value as number;
  }
  const quota = fields.uploadQuotaBytes;
  if (quota !== undefined) {
    const most = controlBounds.maxUploadQuotaBytes;
    if (!Number.isSafeInteger(quota) || (quota as number) < 0 || (quota as number) > most) {
      throw new ApiError('INVALID_REQUEST', `uploadQuotaBytes must be an integer from 0 to ${most}.`);
    }
    next.uploadQuotaBytes = quota as number;
  }
  return next;
}
