/**
 * Made-up test-control calls for the rules' tests (openapi-control.yaml): accounts made, keys
 * replaced and revoked, limits and credits set, the clock moved, the settings read.
 */
import { fake } from '../fake-traffic.ts';
import { accountOf, type TrafficExchange } from '../traffic-exchange.ts';

/** The account digest traffic names a made-up key by. */
export const digestOf = (apiKey: string): string => accountOf(`Bearer ${apiKey}`);

const control = (method: string, path: string, json: unknown, at: number, body?: unknown): TrafficExchange =>
  fake({
    method,
    path: `/_control${path}`,
    status: 200,
    json,
    at,
    account: 'none',
    ...(body !== undefined && { body }),
  });

/** POST /accounts: a new account whose first key is `apiKey`. */
export const made = (accountId: string, apiKey: string, at: number) =>
  control('POST', '/accounts', { accountId, apiKey, credits: 20 }, at);

/** POST /accounts/{id}/rotate-key: `apiKey` replaces the account's key. */
export const rotated = (accountId: string, apiKey: string, at: number) =>
  control('POST', `/accounts/${accountId}/rotate-key`, { accountId, apiKey }, at);

/** POST /accounts/{id}/revoke-key. */
export const revoked = (accountId: string, at: number) =>
  control('POST', `/accounts/${accountId}/revoke-key`, { accountId, revoked: true }, at);

/** PUT /accounts/{id}/limits with `limits` (startsPerMinute, ...). */
export const limitsSet = (accountId: string, limits: Record<string, number>, at: number) =>
  control('PUT', `/accounts/${accountId}/limits`, { accountId, limits }, at, limits);

/** PUT /accounts/{id}/credits. */
export const creditsSet = (accountId: string, credits: number, at: number) =>
  control('PUT', `/accounts/${accountId}/credits`, { accountId, credits }, at, { credits });

/** POST /clock/advance answered with the server's new time. */
export const clockMoved = (now: string, at: number) => control('POST', '/clock/advance', { now }, at, { seconds: 1 });

/** GET /settings naming the fixture origin the server trusts and its time. */
export const settings = (trustedFixtureOrigin: string, now: string, at: number) =>
  control('GET', '/settings', { now, trustedFixtureOrigin }, at);
