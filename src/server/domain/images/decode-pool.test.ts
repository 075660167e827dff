/**
 * The decode pool (issue 13: decoding bounded in time, and one account's uploads never take the
 * whole pool): real worker threads, real sharp.
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
    const order: string[] = [];
    const hostile = Array.from({ length: 8 }, (_, i) => p.decode(photo, 'hostile').then(() => order.push(`hostile-${i}`)));
    const normal = p.decode(photo, 'normal').then(() => order.push('normal'));
    await Promise.all([...hostile, normal]);
    // One account holds at most size − 1 workers, so the other account's image does not wait for all eight.
    expect(order.indexOf('normal')).toBeLessThan(3);
  }, 60_000);
});
