/** The hard stop of the budget, by balance and pessimistic, with balances given in: no target, no clock. */
import { describe, expect, it } from 'vitest';
import { BudgetExhausted, SpendGuard, type Release } from './spend-guard.ts';

/** Balances a fake target keeps; `charge` moves one, as a finished try-on would. */
function ledger(initial: Record<string, number>) {
  const balances = { ...initial };
  let reads = 0;
  return {
    read: async (key: string) => {
      reads++;
      return balances[key] ?? 0;
    },
    charge: (key: string, n = 1) => void (balances[key] = (balances[key] ?? 0) - n),
    refund: (key: string, n = 1) => void (balances[key] = (balances[key] ?? 0) + n),
    reads: () => reads,
  };
}

const answered = (status: number) => ({ response: { status } });

describe('SpendGuard by balance', () => {
  it('lets starts through while spent + in flight stays within the budget, as the balances say', async () => {
    const l = ledger({ a: 20 });
    const g = new SpendGuard(2, l.read);
    expect(g.mode).toBe('balance');
    const first = await g.acquire('a');
    const second = await g.acquire('a');
    await expect(g.acquire('a')).rejects.toBeInstanceOf(BudgetExhausted);
    l.charge('a');
    first();
    second();
    expect(await g.spent()).toBe(1);
    await g.acquire('a');
    await expect(g.acquire('a')).rejects.toThrow(
      /the credit budget of 2 is used up \(1 spent by this run, as GET \/account counts it\)/,
    );
  });

  it('counts refunds in the run’s favour, over every enrolled account', async () => {
    const l = ledger({ a: 5, b: 5 });
    const g = new SpendGuard(1, l.read);
    await g.enrol('a');
    await g.enrol('b');
    l.charge('a');
    expect(await g.spent()).toBe(1);
    await expect(g.acquire('b')).rejects.toBeInstanceOf(BudgetExhausted);
    l.refund('a');
    (await g.acquire('b'))();
    expect(await g.spent()).toBe(0);
  });

  it('notes a balance once per account, and releases a reservation once', async () => {
    const l = ledger({ a: 3 });
    const g = new SpendGuard(1, l.read);
    await g.enrol('a');
    await g.enrol('a');
    expect(l.reads()).toBe(1);
    const release = await g.acquire('a');
    release();
    release();
    // Released twice, counted once: one more start fits, a second in flight does not.
    const again = await g.acquire('a');
    await expect(g.acquire('a')).rejects.toBeInstanceOf(BudgetExhausted);
    again();
  });
});

describe('SpendGuard, pessimistic (no balance reading)', () => {
  it.each<[string, Array<Parameters<Release>[0]>, number]>([
    ['counts every start that could be charged', [answered(200), answered(200)], 2],
    ['counts a start released without its answer', [undefined], 1],
    ['counts 5xx and transport failures (they may have started)', [answered(500), answered(502), {}], 3],
    [
      'does not count a start refused with a 4xx (it "cannot be started", "uses no credit")',
      [answered(400), answered(402), answered(429)],
      0,
    ],
    ['refunds nothing: a sync 200 failed still counts', [answered(200)], 1],
  ])('%s', async (_name, answers, spent) => {
    const g = new SpendGuard(10);
    expect(g.mode).toBe('pessimistic');
    for (const a of answers) (await g.acquire('a'))(a);
    expect(await g.spent()).toBe(spent);
  });

  it('stops at the budget and says why, without reading any balance', async () => {
    const g = new SpendGuard(2);
    (await g.acquire('a'))(answered(200));
    const inFlight = await g.acquire('b');
    await expect(g.acquire('a')).rejects.toThrow(
      /the credit budget of 2 is used up \(1 spent by this run, counting every start that could be charged, since no balance is read\)/,
    );
    inFlight(answered(403));
    (await g.acquire('a'))(answered(200));
    await expect(g.acquire('a')).rejects.toBeInstanceOf(BudgetExhausted);
  });
});

describe('SpendGuard in a test that declares it spends nothing', () => {
  it('lets its starts through at a budget of 0, reserving nothing, by balance and pessimistic', async () => {
    const l = ledger({ a: 20 });
    for (const g of [new SpendGuard(0, l.read), new SpendGuard(0)]) {
      g.spendsNothing(true);
      const first = await g.acquire('a');
      const second = await g.acquire('a');
      first(answered(400));
      second(answered(403));
      expect(await g.spent()).toBe(0);
      g.spendsNothing(false);
      await expect(g.acquire('a')).rejects.toThrow(/the credit budget of 0 is used up \(0 spent/);
    }
  });

  it('stops its starts once a start it expected refused was charged past the budget', async () => {
    const l = ledger({ a: 20 });
    const byBalance = new SpendGuard(0, l.read);
    byBalance.spendsNothing(true);
    const charged = await byBalance.acquire('a');
    l.charge('a');
    charged(answered(202));
    await expect(byBalance.acquire('a')).rejects.toThrow(/the credit budget of 0 is used up \(1 spent/);
    const pessimistic = new SpendGuard(0);
    pessimistic.spendsNothing(true);
    (await pessimistic.acquire('a'))(answered(202));
    await expect(pessimistic.acquire('a')).rejects.toThrow(/the credit budget of 0 is used up \(1 spent/);
  });

  it('leaves the reservations of a test that spends as they were', async () => {
    const g = new SpendGuard(1);
    g.spendsNothing(true);
    g.spendsNothing(false);
    const held = await g.acquire('a');
    await expect(g.acquire('a')).rejects.toBeInstanceOf(BudgetExhausted);
    held(answered(400));
  });
});
