/**
 * Scoping per account (spec: Authentication 3 and 6; Account credits; Limits; POST /tryons rule 3): try-ons,
 * image ids, credits, rate limits and Idempotency-Keys belong to the account, not the key or the service. A
 * server that keys them by API key shows it across a key rotation; one that keys them globally, across two
 * accounts using the same Idempotency-Key. The property plays random interleavings of starts, rotations and
 * reads over two fresh accounts, against a model of what belongs to which account.
 */
import fc from 'fast-check';
import { describe, expect } from 'vitest';
import type { Exchange } from '../client/exchange.ts';
import { Api, balanceIfRead, newIdempotencyKey } from './api.ts';
import { conformance, type ConformanceContext } from './conformance.ts';
import type { ControlClient } from './control-client.ts';
import type { Actor } from './target.ts';
import { idBody } from './uploaded-inputs.ts';

const statusOf = (ex: Exchange) => ex.response?.status ?? ex.error;
const said = (ex: Exchange): string => `${ex.response?.status ?? ex.error} ${ex.response?.text.slice(0, 200) ?? ''}`;
const codeOf = (ex: Exchange): unknown => (ex.response?.json as { code?: unknown } | undefined)?.code;
const idOf = (ex: Exchange): unknown => (ex.response?.json as { id?: unknown } | undefined)?.id;

type Who = 0 | 1;
/** Three Idempotency-Key values, shared by both accounts. */
type Slot = 0 | 1 | 2;

type Action =
  | { readonly kind: 'start'; readonly who: Who; readonly slot: Slot }
  | { readonly kind: 'rotate'; readonly who: Who }
  | { readonly kind: 'read'; readonly who: Who; readonly pick: number }
  | { readonly kind: 'balance'; readonly who: Who };

const who = fc.constantFrom<Who>(0, 1);
const action: fc.Arbitrary<Action> = fc.oneof(
  {
    arbitrary: fc.record({ kind: fc.constant('start' as const), who, slot: fc.constantFrom<Slot>(0, 1, 2) }),
    weight: 4,
  },
  { arbitrary: fc.record({ kind: fc.constant('rotate' as const), who }), weight: 2 },
  { arbitrary: fc.record({ kind: fc.constant('read' as const), who, pick: fc.nat(99) }), weight: 3 },
  { arbitrary: fc.record({ kind: fc.constant('balance' as const), who }), weight: 1 },
);

/**
 * Every run opens with the moves that tell the scopings apart, then plays 0-10 random ones: both
 * accounts use key value 0 (with the same body, where the body can be the same: fixture URLs), the
 * first account spends, rotates its key, repeats key 1 (a replay), starts with key 2 (its uploaded
 * ids, under the new key), reads its try-on and the other's, and reads its balance.
 */
const opening: readonly Action[] = [
  { kind: 'start', who: 0, slot: 0 },
  { kind: 'start', who: 1, slot: 0 },
  { kind: 'start', who: 0, slot: 1 },
  { kind: 'rotate', who: 0 },
  { kind: 'start', who: 0, slot: 1 },
  { kind: 'start', who: 0, slot: 2 },
  { kind: 'read', who: 0, pick: 0 },
  { kind: 'read', who: 1, pick: 0 },
  { kind: 'balance', who: 0 },
];
const numRuns = 6;
const maxRandom = 10;

/** One account as the model knows it. */
interface AccountModel {
  actor: Actor;
  readonly accountId: string;
  readonly bodies: readonly Record<string, unknown>[];
  /** The balance read before anything was sent (undefined: the run reads no balance). */
  readonly initial: number | undefined;
  /** Its try-ons, in creation order, with the last state read. */
  readonly tryOns: Array<{ id: string; status: unknown }>;
  /** Idempotency-Key slot → the try-on it started. */
  readonly bound: Map<Slot, string>;
  rotations: number;
}

/** A fresh account of the run's own (raised limits), with its uploads, and the bodies of the three key slots. */
async function account(t: ConformanceContext, api: Api, n: Who): Promise<AccountModel> {
  const actor = await t.ownAccount();
  if (!actor.accountId) return t.skip('needs test control');
  const ids = await idBody(api, actor);
  // Key slot 0 has the same body in both accounts where the run has a fixture host: a server that
  // keys Idempotency-Keys globally would then give one account the other's try-on.
  const shared = t.target.config.fixtureBaseUrl
    ? { personImageUrl: api.fixtureUrl('person.jpg'), garmentImageUrl: api.fixtureUrl('garment.png'), consent: true }
    : { ...ids, title: 'slot 0' };
  return {
    actor: { ...actor, name: `account ${n + 1}` },
    accountId: actor.accountId,
    bodies: [shared, ids, { ...ids, title: 'slot 2' }],
    initial: await balanceIfRead(t.target, actor.key),
    tryOns: [],
    bound: new Map(),
    rotations: 0,
  };
}

async function play(
  t: ConformanceContext,
  api: Api,
  control: ControlClient,
  actions: readonly Action[],
): Promise<void> {
  const models = [await account(t, api, 0), await account(t, api, 1)] as const;
  const keys = [newIdempotencyKey(), newIdempotencyKey(), newIdempotencyKey()] as const;
  const owner = new Map<string, Who>();
  const all = (): string[] => [...owner.keys()];

  const settleAll = async (m: AccountModel): Promise<void> => {
    for (const tryOn of m.tryOns) {
      if (tryOn.status === 'success' || tryOn.status === 'failed') continue;
      const final = await api.waitFinal(m.actor, tryOn.id);
      tryOn.status = (final.response?.json as { status?: unknown } | undefined)?.status;
    }
  };
  const checkBalance = async (w: Who): Promise<void> => {
    const m = models[w];
    if (m.initial === undefined) return;
    // "1 credit per finished try-on"; "A try-on that fails ... is refunded automatically": read once all are final.
    await settleAll(m);
    const successes = m.tryOns.filter((x) => x.status === 'success').length;
    const balance = await balanceIfRead(t.target, m.actor.key);
    if (balance === undefined) return;
    const expected = m.initial - successes;
    const what = `balance of ${m.actor.name} after ${successes} finished try-on(s) and ${m.rotations} key rotation(s), from ${m.initial}`;
    if (m.rotations > 0 && balance > expected) {
      // "Its first API key adds 20 free credits, once per account": a later key adds none.
      t.must('ACCOUNT-FREE-CREDITS-ONCE', () => expect({ [what]: balance }).toEqual({ [what]: expected }));
    }
    // "Each account holds a credit balance": its own try-ons, and only they, spend it, whatever its key.
    t.must('ACCOUNT-OWN-CREDIT-BALANCE', () => expect({ [what]: balance }).toEqual({ [what]: expected }));
  };

  for (const a of actions) {
    const m = models[a.who];
    if (a.kind === 'rotate') {
      const key = await control.rotateKey(m.accountId);
      t.target.secrets[key] = '$TRYON_FRESH_API_KEY';
      m.actor = { ...m.actor, key };
      m.rotations++;
    } else if (a.kind === 'start') {
      const ex = await api.start(m.actor, m.bodies[a.slot], { idempotencyKey: keys[a.slot] });
      const id = idOf(ex);
      const other = typeof id === 'string' ? owner.get(id) : undefined;
      const label = `${m.actor.name}'s start with Idempotency-Key ${a.slot + 1}${m.rotations > 0 ? ` after ${m.rotations} key rotation(s)` : ''}`;
      // "image ids and try-ons are scoped to the account of the key": never another account's try-on.
      t.must('AUTH-FOREIGN-TRYON-NOT-FOUND', () =>
        expect(
          other === undefined || other === a.who,
          `${label} answered the other account's try-on: ${said(ex)}`,
        ).toBe(true),
      );
      const earlier = m.bound.get(a.slot);
      if (earlier !== undefined) {
        // "Reusing an Idempotency-Key returns the earlier try-on instead of starting or charging again" (the
        // account's key, whichever API key it now has).
        t.must('CREATE-IDEMPOTENCY-REPLAY', () =>
          expect({ [label]: [statusOf(ex), id] }).toEqual({ [label]: [200, earlier] }),
        );
        continue;
      }
      if (statusOf(ex) === 400 && codeOf(ex) === 'INVALID_IMAGE_ID') {
        // "Only the account that uploaded an image may use its id"; "An id may be used in any number of
        // try-ons within its 24 hours".
        t.must('RES-IMAGE-ID-REUSABLE-WITHIN-24H', () =>
          expect(said(ex), `${label} refused the account's own uploaded ids`).not.toMatch(/INVALID_IMAGE_ID/),
        );
      }
      // The key is new for this account ("New per try-on"): a valid start with credit available starts a
      // try-on of its own.
      t.must('CREATE-NEW-KEY-NEW-TRYON', () =>
        expect({ [label]: [statusOf(ex), typeof id === 'string' && !owner.has(id)] }).toEqual({ [label]: [200, true] }),
      );
      m.bound.set(a.slot, id as string);
      m.tryOns.push({ id: id as string, status: 'pending' });
      owner.set(id as string, a.who);
    } else if (a.kind === 'read') {
      const ids = all();
      if (ids.length === 0) continue;
      const id = ids[a.pick % ids.length]!;
      const ex = await api.get(m.actor, id);
      const mine = owner.get(id) === a.who;
      const label = `${m.actor.name} reads ${mine ? 'its own' : "the other account's"} try-on${m.rotations > 0 ? ` after ${m.rotations} key rotation(s)` : ''}`;
      if (mine) {
        // "Only the creating account can read it" (the account, with whichever key is its one active key).
        t.must('RES-TRYON-ID-RETURNED-ON-CREATE', () =>
          expect({ [label]: [statusOf(ex), idOf(ex)] }).toEqual({ [label]: [200, id] }),
        );
        const tryOn = m.tryOns.find((x) => x.id === id);
        if (tryOn) tryOn.status = (ex.response?.json as { status?: unknown } | undefined)?.status;
      } else {
        // "another account's try-on id gives `NOT_FOUND`".
        t.must('AUTH-FOREIGN-TRYON-NOT-FOUND', () =>
          expect({ [label]: [statusOf(ex), codeOf(ex)] }).toEqual({ [label]: [404, 'NOT_FOUND'] }),
        );
      }
    } else {
      await checkBalance(a.who);
    }
  }
  await checkBalance(0);
  await checkBalance(1);
}

/** Sends `n` valid starts at once on `actor`; the answers. */
async function burst(api: Api, actor: Actor, body: unknown, n: number): Promise<Exchange[]> {
  const out: Exchange[] = [];
  for (let i = 0; i < n; i++) out.push(await api.start(actor, body, { pace: false }));
  return out;
}

describe('scoping per account', () => {
  conformance(
    'keeps try-ons, image ids, Idempotency-Keys and credits with the account: across key rotations, and apart between two accounts using the same keys',
    {
      covers: [
        'AUTH-FOREIGN-TRYON-NOT-FOUND',
        'CREATE-IDEMPOTENCY-REPLAY',
        'CREATE-NEW-KEY-NEW-TRYON',
        'RES-IMAGE-ID-REUSABLE-WITHIN-24H',
        'RES-TRYON-ID-RETURNED-ON-CREATE',
        'ACCOUNT-FREE-CREDITS-ONCE',
        'ACCOUNT-OWN-CREDIT-BALANCE',
      ],
      needs: ['test-control', 'second-account'],
      starts: numRuns * (6 + maxRandom),
      polls: numRuns * 60,
      uploads: numRuns * 4,
    },
    async (t) => {
      const control = t.target.control ?? t.skip('needs test control');
      const api = new Api(t.target);
      await t.check(
        fc.asyncProperty(fc.array(action, { maxLength: maxRandom }), async (random) =>
          play(t, api, control, [...opening, ...random]),
        ),
        numRuns,
      );
    },
  );

  conformance(
    'counts the starts window per account: a new key of the same account does not open a new window',
    { covers: ['LIMIT-RATES-PER-ACCOUNT'], needs: ['test-control'], starts: 2 * 13, uploads: 4 },
    async (t) => {
      const control = t.target.control ?? t.skip('needs test control');
      const api = new Api(t.target);
      const trial = async (): Promise<Exchange> => {
        const actor = await t.target.freshAccount({ starts: 12 });
        if (!actor.accountId) return t.skip('needs test control');
        // With test control credits are the run's own: enough for every start.
        await control.setCredits(actor.accountId, 20);
        const body = await idBody(api, actor);
        const first = await burst(api, actor, body, 12);
        const refused = first.filter((ex) => statusOf(ex) !== 200);
        // The 12 themselves are judged by the rate-limit tests; here they only fill the window.
        if (refused.length > 0)
          t.inconclusive(`12 valid starts in a fresh window did not all start: ${said(refused[0]!)}`);
        const key = await control.rotateKey(actor.accountId);
        t.target.secrets[key] = '$TRYON_FRESH_API_KEY';
        return api.start({ ...actor, key }, body, { pace: false });
      };
      let over = await trial();
      // A fixed window may let one burst over when it crosses its boundary: only a repeat is judged.
      if (statusOf(over) !== 429) {
        t.choose(
          'starts-window',
          `one burst let over the limit (${statusOf(over)}) after a key rotation, as a fixed window crossing its boundary may; the repeat was judged`,
        );
        over = await trial();
      }
      // Limits: "Starting try-ons | 12 per minute per account": the account's 13th start, whatever its key.
      t.must('LIMIT-RATES-PER-ACCOUNT', () =>
        expect(
          statusOf(over),
          `the account's 13th start within a minute, the first with its new key: ${said(over)}`,
        ).toBe(429),
      );
    },
  );
});
