/**
 * The cap on one account's requests in flight at once (`maxInFlightPerAccount`), so one account's held syncs
 * and slow uploads cannot take the server from others: a request counts from its handler's start (after
 * authentication and any JSON body) until its answer has gone or its connection closed. Over the cap: 503 UNAVAILABLE with Retry-After (spec: Errors, "503
 * UNAVAILABLE, temporarily unavailable, retry after a short wait"); other accounts are never counted against it.
 */
import type { ServerResponse } from 'node:http';
import type { preHandlerHookHandler } from 'fastify';
import { ApiError } from '../api-errors.ts';

const countedFor = Symbol('in flight for');

type CountedResponse = ServerResponse & { [countedFor]?: string | undefined };

/** Counts the requests of each account in flight. */
export class AccountsInFlight {
  readonly #counts = new Map<string, number>();
  // One listener for every response: `this` is the response that closed.
  readonly #release = (response: CountedResponse): void => {
    const account = response[countedFor];
    if (account === undefined) return;
    response[countedFor] = undefined;
    const left = (this.#counts.get(account) ?? 1) - 1;
    if (left <= 0) this.#counts.delete(account);
    else this.#counts.set(account, left);
  };
  readonly #onClose = this.#makeOnClose();

  constructor(private readonly max: number) {}

  /** Requests of `account` in flight now (for tests and figures). */
  of(account: string): number {
    return this.#counts.get(account) ?? 0;
  }

  /**
   * Counts the request answered by `response` for `account` until that answer has gone; an ApiError
   * (503 UNAVAILABLE) when the account already has `max` in flight.
   */
  enter(account: string, response: ServerResponse): ApiError | undefined {
    const now = this.#counts.get(account) ?? 0;
    if (now >= this.max) return refusal(this.max);
    const counted = response as CountedResponse;
    // A request authenticated twice (a route with two hooks) counts once.
    if (counted[countedFor] !== undefined) return undefined;
    this.#counts.set(account, now + 1);
    counted[countedFor] = account;
    response.once('close', this.#onClose);
    return undefined;
  }

  #makeOnClose(): (this: ServerResponse) => void {
    const release = this.#release;
    return function (this: ServerResponse) {
      release(this as CountedResponse);
    };
  }
}

function refusal(max: number): ApiError {
  const message = `This account already has ${max} requests in progress at once; retry shortly.`;
  return new ApiError('UNAVAILABLE', message, { 'retry-after': '1' });
}

/**
 * A hook for every route: a request authenticated as an account (its route's onRequest set
 * `accountId`) counts against that account's cap from here, before its handler runs.
 */
export function capAccountsInFlight(max: number): preHandlerHookHandler {
  const accounts = new AccountsInFlight(max);
  return (request, reply, done) => {
    const accountId = request.accountId as string | undefined;
    if (accountId === undefined) return done();
    const refused = accounts.enter(accountId, reply.raw);
    if (refused) return done(refused);
    done();
  };
}
