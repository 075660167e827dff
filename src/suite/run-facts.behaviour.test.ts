/**
 * The run's facts at work, over HTTP against two small targets: one that keeps every try-on pending
 * (ids of its own per start), and one that answers every request with the same example, as a static
 * mock does. A later test never waits again for what an earlier one learned cannot come.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Exchange } from '../client/exchange.ts';
import { Api } from './api.ts';
import { Inconclusive } from './rules.ts';
import { runFacts } from './run-facts.ts';
import { connectTarget, type SuiteTarget } from './target.ts';

interface Fake {
  readonly server: Server;
  readonly polls: string[];
  target?: SuiteTarget;
}

/** A target whose try-ons never finish: `same` answers the one example id to every start and read. */
async function fakeTarget(same: boolean): Promise<Fake> {
  const polls: string[] = [];
  let n = 0;
  const server = createServer((req, res) => {
    const url = req.url ?? '';
    const answer = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    req.resume();
    if (url.endsWith('/account')) return answer(200, { credits: 100 });
    if (req.method === 'POST' && url.endsWith('/tryons')) {
      const id = same ? 'ton_example' : `ton_${++n}`;
      return answer(200, { id, status: 'pending', pollUrl: `/api/v1/tryons/${id}` });
    }
    const asked = decodeURIComponent(url.split('/').pop() ?? '');
    polls.push(asked);
    return answer(200, { id: same ? 'ton_example' : asked, status: 'pending', resultUrl: null });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const fake: Fake = { server, polls };
  fake.target = await connectTarget({
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`,
    apiKey: `vto_live_${'c'.repeat(44)}`,
    balancePath: '/credits',
    creditBudget: 8,
    seed: 1,
    profile: 'full',
  });
  return fake;
}

const body = { personImageUrl: 'https://example.test/p.jpg', garmentImageUrl: 'https://example.test/g.jpg' };
let pending: Fake;
let example: Fake;

beforeAll(async () => {
  pending = await fakeTarget(false);
  example = await fakeTarget(true);
});
afterAll(() => {
  for (const fake of [pending, example]) fake?.server.close();
});

const fieldOf = (ex: Exchange, field: string): unknown =>
  (ex.response?.json as Record<string, unknown> | undefined)?.[field];

/** The id a start answered (with `title`, when given, in its body). */
async function started(fake: Fake, title?: string): Promise<string> {
  const target = fake.target as SuiteTarget;
  const ex = await new Api(target).start(target.primary, { ...body, consent: true, ...(title && { title }) });
  return String(fieldOf(ex, 'id'));
}

describe('facts about a target that keeps try-ons pending', () => {
  test('a try-on still pending at the give-up time teaches the run so; the test that waited sees the answer', async () => {
    const target = pending.target as SuiteTarget;
    const api = new Api(target);
    const first = await api.waitFinal(target.primary, await started(pending), 0);
    expect(fieldOf(first, 'status')).toBe('pending');
    expect(runFacts().known('tryons-stay-pending')?.test).toBe(expect.getState().currentTestName);
    // Its own other waits run to their end too: it judges what it saw.
    const second = await api.waitFinal(target.primary, await started(pending), 0);
    expect(fieldOf(second, 'status')).toBe('pending');
  });

  test('a later test ends its wait after one read, inconclusive, naming the fact and the test that learned it', async () => {
    const target = pending.target as SuiteTarget;
    const id = await started(pending);
    const before = pending.polls.length;
    const waiting = new Api(target).waitFinal(target.primary, id);
    await expect(waiting).rejects.toThrow(Inconclusive);
    await expect(waiting).rejects.toThrow(/stayed pending for the whole give-up time .*as "[^"]*teaches the run so/);
    expect(pending.polls.length - before).toBe(1);
  });
});

describe('facts about a target that answers everything with one example', () => {
  test('two starts of one body under different keys answering one try-on are no such fact: a target may fold them', async () => {
    const id = await started(example);
    expect(await started(example)).toBe(id);
    expect(runFacts().known('same-answer-every-time')).toBeUndefined();
  });

  test('two starts of different bodies under different keys with the same answer end a wait at once, in the same test', async () => {
    const target = example.target as SuiteTarget;
    const id = await started(example, 'a red shirt');
    expect(await started(example, 'a blue shirt')).toBe(id);
    expect(runFacts().known('same-answer-every-time')?.seen).toMatch(/two different Idempotency-Keys/);
    const before = example.polls.length;
    await expect(new Api(target).waitFinal(target.primary, id)).rejects.toThrow(
      /this target answers every body with the same example/,
    );
    expect(example.polls.length - before).toBe(1);
  });
});
