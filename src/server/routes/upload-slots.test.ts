import { afterEach, describe, expect, it, vi } from 'vitest';
import { clientKeyOf } from './receiving-caps.ts';
import { UploadSlots, type Release } from './upload-slots.ts';

const limits = { total: 3, perAccount: 2, perClient: 2, waitMs: 1_000, waitingPerAccount: 2 };

/** Settles pending promise callbacks. */
const flush = () => new Promise((resolve) => setImmediate(resolve));

describe('UploadSlots', () => {
  afterEach(() => vi.useRealTimers());

  it('grants at once up to each bound, and makes the next upload of a full account wait for its own slot', async () => {
    const slots = new UploadSlots(limits);
    const a1 = await slots.acquire('a', 'x');
    const a2 = await slots.acquire('a', 'y');
    let a3: Release | undefined;
    void slots.acquire('a', 'z').then((release) => (a3 = release));
    // Account a is at its bound; account b still gets the last slot at once.
    const b1 = await slots.acquire('b', 'z');
    expect([a1, a2, b1].every((r) => typeof r === 'function')).toBe(true);
    expect(slots.held).toBe(3);
    await flush();
    expect(a3).toBeUndefined();
    a1!();
    await flush();
    expect(typeof a3).toBe('function');
    expect(slots.held).toBe(3);
  });

  it('lets a later waiter pass one held back by its own account or client bound', async () => {
    const slots = new UploadSlots({ ...limits, total: 4 });
    const held: Array<Release | undefined> = [];
    for (const [account, client] of [
      ['a', 'x'],
      ['a', 'y'],
      ['b', 'z'],
      ['c', 'z'],
    ] as const) {
      held.push(await slots.acquire(account, client));
    }
    expect(held.every(Boolean)).toBe(true);
    const order: string[] = [];
    void slots.acquire('a', 'w').then((r) => r && order.push('a'));
    void slots.acquire('d', 'w').then((r) => r && order.push('d'));
    // Client z gives one back: a is still at its account bound, d fits.
    held[2]!();
    await flush();
    expect(order).toEqual(['d']);
    held[0]!();
    await flush();
    expect(order).toEqual(['d', 'a']);
  });

  it('refuses once the wait is over, and at once when too many of the account already wait', async () => {
    vi.useFakeTimers();
    const slots = new UploadSlots({ ...limits, total: 1 });
    const first = await slots.acquire('a', 'x');
    const waiting = [slots.acquire('a', 'x'), slots.acquire('a', 'x')];
    expect(await slots.acquire('a', 'x')).toBeUndefined();
    vi.advanceTimersByTime(limits.waitMs);
    expect(await Promise.all(waiting)).toEqual([undefined, undefined]);
    first!();
    expect(slots.held).toBe(0);
  });

  it('forgets a waiter whose client left, and counts a slot given back twice once', async () => {
    const slots = new UploadSlots({ ...limits, total: 1 });
    const first = await slots.acquire('a', 'x');
    const gone = new AbortController();
    const leaving = slots.acquire('b', 'y', gone.signal);
    const staying = slots.acquire('c', 'z');
    gone.abort();
    expect(await leaving).toBeUndefined();
    first!();
    first!();
    const next = await staying;
    expect(typeof next).toBe('function');
    expect(slots.held).toBe(1);
    next!();
    expect(slots.held).toBe(0);
  });
});

describe('clientKeyOf', () => {
  it.each([
    ['127.0.0.2', '127.0.0.2'],
    ['::ffff:10.1.2.3', '10.1.2.3'],
    ['2001:db8:1:2:aaaa::1', '2001:db8:1:2::/64'],
    ['2001:0db8:0001:0002:ffff:ffff:ffff:ffff', '2001:db8:1:2::/64'],
    ['2001:db8::7', '2001:db8:0:0::/64'],
    ['::1', '0:0:0:0::/64'],
    ['fe80::1%eth0', 'fe80:0:0:0::/64'],
    [undefined, 'unknown'],
  ])('%s is the client %s', (address, key) => {
    expect(clientKeyOf(address)).toBe(key);
  });
});
