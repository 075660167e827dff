/**
 * The decode pool (decoding bounded in time, and one account's uploads never take the whole pool):
 * real worker threads, real sharp.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { makePersonPhoto, randomBytes, truncated } from '../../../fixtures/images.ts';
import { DecodePool } from './decode-pool.ts';

const photo = await makePersonPhoto();
const pools: DecodePool[] = [];
const pool = (options: Partial<ConstructorParameters<typeof DecodePool>[0]> = {}) => {
  const made = new DecodePool({ size: 2, deadlineMs: 4_000, queuePerOwner: 8, maxPixels: 40_000_000, ...options });
  pools.push(made);
  return made;
};
afterEach(async () => {
  await Promise.all(pools.splice(0).map((p) => p.close()));
});

describe('DecodePool', () => {
  it('decodes a good image, and refuses a truncated one and random bytes as corrupt', async () => {
    const p = pool();
    expect(await p.decode(photo, 'a')).toEqual({ ok: true });
    expect(await p.decode(truncated(photo), 'a')).toMatchObject({ ok: false, kind: 'corrupt' });
    expect(await p.decode(randomBytes(1, 2000), 'a')).toMatchObject({ ok: false, kind: 'corrupt' });
  }, 30_000);

  it('stops a decode at its deadline, and the next job gets a fresh worker', async () => {
    const p = pool({ size: 1, deadlineMs: 1 });
    await p.warm();
    expect(await p.decode(photo, 'a')).toMatchObject({ ok: false, kind: 'deadline' });
    const patient = pool({ size: 1 });
    expect(await patient.decode(photo, 'a')).toEqual({ ok: true });
  }, 30_000);

  it('answers busy once an account has too many images waiting', async () => {
    const p = pool({ size: 2, queuePerOwner: 2 });
    const answers = await Promise.all(Array.from({ length: 6 }, () => p.decode(photo, 'a')));
    expect(answers.filter((a) => a.ok)).toHaveLength(3); // one running, two waiting
    expect(answers.filter((a) => !a.ok && a.kind === 'busy')).toHaveLength(3);
  }, 30_000);

  it('gives another account a worker while one account has many images queued', async () => {
    const p = pool({ size: 2, queuePerOwner: 20 });
    await p.warm(true);
    const hostile = Array.from({ length: 8 }, () => p.decode(photo, 'hostile'));
    // One account holds at most size − 1 workers: the second worker stays free, and its queue waits.
    expect(p.stats()).toEqual({ running: 1, waiting: 7 });
    const normal = p.decode(photo, 'normal');
    // The other account's image starts at once, beside the first of the eight, not after all of them.
    // Judged on what is running when it is queued, not on which decode finishes first: on a loaded
    // machine two workers decoding side by side may finish in either order.
    expect(p.stats()).toEqual({ running: 2, waiting: 7 });
    expect(await normal).toEqual({ ok: true });
    expect((await Promise.all(hostile)).every((a) => a.ok)).toBe(true);
  }, 60_000);

  it('starts one worker on warm(), and another only when two decodes run at once', async () => {
    const p = pool({ size: 2 });
    await p.warm();
    expect(p.workers()).toBe(1);
    expect(await p.decode(photo, 'a')).toEqual({ ok: true });
    expect(await p.decode(photo, 'b')).toEqual({ ok: true });
    expect(p.workers()).toBe(1);
    const both = [p.decode(photo, 'a'), p.decode(photo, 'b')];
    expect(p.stats()).toEqual({ running: 2, waiting: 0 });
    expect(p.workers()).toBe(2);
    expect(await Promise.all(both)).toEqual([{ ok: true }, { ok: true }]);
  }, 30_000);
});
