/**
 * A held sync request and a try-on that finishes while the store is still being read: the store answers
 * asynchronously, so the finish (and its notice) may come between the read and the hold. The request must
 * still get the final state at once, not a 202 at the end of its wait.
 */
import { EventEmitter } from 'node:events';
import type { FastifyReply } from 'fastify';
import { describe, expect, it } from 'vitest';
import { SyncWaiters } from '../domain/sync-waiters.ts';
import type { TryOnRecord } from '../store/store.ts';
import type { ServerContext } from './context.ts';
import { syncHolder } from './sync-hold.ts';

const pending: TryOnRecord = {
  id: 'tr_1',
  accountId: 'acct_1',
  status: 'pending',
  scenario: null,
  title: null,
  createdAt: 0,
  finishedAt: null,
  resultFile: null,
  message: null,
};
const finished: TryOnRecord = { ...pending, status: 'success', finishedAt: 1, resultFile: 'r.png' };

/** A reply that records what was sent, and a response that can close. */
function fakeReply(): { reply: FastifyReply; sent: { status: number; body: unknown }[] } {
  const sent: { status: number; body: unknown }[] = [];
  let status = 200;
  const raw = Object.assign(new EventEmitter(), { writableFinished: false });
  const reply = {
    raw,
    request: { raw: { socket: { destroyed: false } } },
    code(next: number) {
      status = next;
      return reply;
    },
    send(body: unknown) {
      sent.push({ status, body });
      raw.writableFinished = true;
      return reply;
    },
  };
  return { reply: reply as unknown as FastifyReply, sent };
}

/** Lets every promise already under way settle (one macrotask turn). */
const settled = () => new Promise((resolve) => setImmediate(resolve));

describe('syncHolder', () => {
  it('answers 200 at once when the try-on finishes while its pending state is being read', async () => {
    const waiters = new SyncWaiters();
    let stored = pending;
    let answerRead!: () => void;
    const readAnswered = new Promise<void>((resolve) => {
      answerRead = resolve;
    });
    const ctx = {
      cached: { key: () => undefined, limits: () => undefined, tryOn: () => undefined },
      store: {
        findTryOn: async () => {
          const seen = stored;
          // The finish lands after the read saw `pending`, before its answer arrives.
          await readAnswered;
          return seen;
        },
      },
      waiters,
      settings: { syncWaitMs: 60_000 },
      publicUrl: () => 'http://127.0.0.1',
    } as unknown as ServerContext;
    const { reply, sent } = fakeReply();

    syncHolder(ctx)('tr_1', reply);
    stored = finished;
    waiters.notify('tr_1');
    answerRead();
    await settled();

    expect(sent.map((s) => s.status)).toEqual([200]);
    expect(sent[0]?.body).toMatchObject({ id: 'tr_1', status: 'success' });
    expect(waiters.size).toBe(0);
  });

  it('answers a try-on final when read once, and lets its waiter go', async () => {
    const waiters = new SyncWaiters();
    const ctx = {
      cached: { key: () => undefined, limits: () => undefined, tryOn: () => undefined },
      store: { findTryOn: async () => finished },
      waiters,
      settings: { syncWaitMs: 60_000 },
      publicUrl: () => 'http://127.0.0.1',
    } as unknown as ServerContext;
    const { reply, sent } = fakeReply();
    syncHolder(ctx)('tr_1', reply);
    await settled();
    expect(sent.map((s) => s.status)).toEqual([200]);
    expect(waiters.size).toBe(0);
  });
});
