/**
 * A bound on the upload bodies held in memory at once, so parallel uploads cannot grow the server without
 * limit: an upload takes a slot before its body is read and gives it back once its answer has gone. Slots are
 * bounded in total, per account and per client address; an upload over a bound waits unread, in arrival
 * order, and is refused when no slot came free in time or too many of its account already wait.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../api-errors.ts';
import { clientOfSocket } from './receiving-caps.ts';

export interface UploadSlotLimits {
  readonly total: number;
  readonly perAccount: number;
  readonly perClient: number;
  readonly waitMs: number;
  readonly waitingPerAccount: number;
}

/** Gives a slot back; calling it again does nothing. */
export type Release = () => void;

interface Waiter {
  readonly account: string;
  readonly client: string;
  readonly grant: (release: Release | undefined) => void;
}

export class UploadSlots {
  readonly #byAccount = new Map<string, number>();
  readonly #byClient = new Map<string, number>();
  readonly #waitingByAccount = new Map<string, number>();
  #waiting: Waiter[] = [];
  #held = 0;

  constructor(private readonly limits: UploadSlotLimits) {}

  /** Slots held now (for tests and figures). */
  get held(): number {
    return this.#held;
  }

  /**
   * A slot for one upload of `account` from `client`, or undefined when none came free within the
   * wait, too many of the account already wait, or `gone` fired (the client left) while waiting.
   */
  acquire(account: string, client: string, gone?: AbortSignal): Promise<Release | undefined> {
    if (this.#fits(account, client) && this.#waiting.length === 0) return Promise.resolve(this.#take(account, client));
    const waiting = this.#waitingByAccount.get(account) ?? 0;
    if (waiting >= this.limits.waitingPerAccount || gone?.aborted) return Promise.resolve(undefined);
    return new Promise((resolve) => {
      const waiter: Waiter = {
        account,
        client,
        grant: (release) => {
          clearTimeout(timer);
          gone?.removeEventListener('abort', leave);
          this.#waitingByAccount.set(account, (this.#waitingByAccount.get(account) ?? 1) - 1);
          if (this.#waitingByAccount.get(account) === 0) this.#waitingByAccount.delete(account);
          resolve(release);
        },
      };
      const leave = () => {
        this.#waiting = this.#waiting.filter((w) => w !== waiter);
        waiter.grant(undefined);
        // A waiter that leaves may have held back others behind it (arrival order).
        this.#pump();
      };
      const timer = setTimeout(leave, this.limits.waitMs);
      gone?.addEventListener('abort', leave, { once: true });
      this.#waitingByAccount.set(account, (this.#waitingByAccount.get(account) ?? 0) + 1);
      this.#waiting.push(waiter);
      // Those ahead may be held back by their own account's or client's bound, not by this one's.
      this.#pump();
    });
  }

  #fits(account: string, client: string): boolean {
    return (
      this.#held < this.limits.total &&
      (this.#byAccount.get(account) ?? 0) < this.limits.perAccount &&
      (this.#byClient.get(client) ?? 0) < this.limits.perClient
    );
  }

  #take(account: string, client: string): Release {
    this.#held++;
    this.#byAccount.set(account, (this.#byAccount.get(account) ?? 0) + 1);
    this.#byClient.set(client, (this.#byClient.get(client) ?? 0) + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#held--;
      decrement(this.#byAccount, account);
      decrement(this.#byClient, client);
      this.#pump();
    };
  }

  /** Grants free slots to waiters in arrival order; one held back by its own bound lets later ones pass. */
  #pump(): void {
    for (let i = 0; i < this.#waiting.length && this.#held < this.limits.total; ) {
      const waiter = this.#waiting[i]!;
      if (!this.#fits(waiter.account, waiter.client)) {
        i++;
        continue;
      }
      this.#waiting.splice(i, 1);
      waiter.grant(this.#take(waiter.account, waiter.client));
    }
  }
}

/**
 * Waits for a slot for `request` (its account, its client address) before its body is read, and
 * gives it back once the answer has gone or the connection closed; 503 UNAVAILABLE with
 * Retry-After when none came.
 */
export async function holdUploadSlot(slots: UploadSlots, request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const socket = request.raw.socket;
  const gone = new AbortController();
  const leave = () => gone.abort();
  if (socket.destroyed) leave();
  else socket.once('close', leave);
  const release = await slots.acquire(request.accountId, clientOfSocket(socket), gone.signal);
  socket.off('close', leave);
  if (!release) {
    const message = 'Too many uploads are being received at once; retry shortly.';
    throw new ApiError('UNAVAILABLE', message, { 'retry-after': '1' });
  }
  reply.raw.once('close', release);
}

function decrement(counts: Map<string, number>, key: string): void {
  const left = (counts.get(key) ?? 1) - 1;
  if (left <= 0) counts.delete(key);
  else counts.set(key, left);
}
