/** Fixtures of the Store contract (store-contract.ts): time units, uploads, starts and results. */
import { expect } from 'vitest';
import type { ImageRecord, NewTryOnInput, Store } from './store.ts';

export const hour = 3_600_000;
export const day = 24 * hour;
export const retention = 30 * day;
export const hash = (fill: number): Buffer => Buffer.alloc(32, fill);

/** How a contract test gets its store: a fresh, empty one per test, closed after it. */
export interface ContractStores {
  open(): Promise<Store>;
}

/** An upload of `size` bytes by `accountId` at `at`; its id expires a day later. */
export const image = (id: string, accountId: string, size: number, at: number): ImageRecord => ({
  id,
  accountId,
  format: 'jpeg',
  bytes: Buffer.alloc(size, 1),
  scenario: null,
  createdAt: at,
  expiresAt: at + day,
});

export const bytesInput = (text: string): NewTryOnInput => ({ bytes: Buffer.from(text) });

/** Reserves the credit of try-on `id` and stores it pending with key `key-<id>`, as a start does. */
export async function start(
  store: Store,
  accountId: string,
  id: string,
  now: number,
  inputs = { person: bytesInput('person'), garment: bytesInput('garment') },
): Promise<void> {
  expect(await store.reserveCredit(accountId, id, now)).toBe(true);
  const idempotency = { key: `key-${id}`, fingerprint: `f-${id}`, expiresAt: now + day };
  await store.insertTryOn({ id, accountId, scenario: null, title: null, inputs, idempotency }, now);
}

/** A result of 10,000 bytes whose URL expires a day after `now`. */
export const result = (file: string, now: number) => ({
  file,
  format: 'png' as const,
  bytes: Buffer.alloc(10_000, 2),
  expiresAt: now + day,
});
