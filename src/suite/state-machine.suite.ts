/**
 * The try-on state machine, model-based (spec: States and transitions; Resources, Try-on; Authentication 6;
 * x-point terminal-transitions). Random starts, sync starts, polls, replays, uploads and other-account probes,
 * checked after every answer: status moves only pending → success | failed and stays final; resultUrl, message
 * and pollUrl keep their rules; so do result images; with test control the clock crosses the 24 h marks
 * (tryon-clock-commands.ts). Commands pick images and try-ons by index into the model (`#k`, modulo the count).
 */
import fc from 'fast-check';
import { describe, expect, inject } from 'vitest';
import type { RequirementId } from '../contract/requirements.ts';
import { makeGarmentImage, makePersonPhoto } from '../fixtures/images.ts';
import { Api, balanceIfRead } from './api.ts';
import { conformance, type ConformanceContext } from './conformance.ts';
import { raisedLimits } from './target.ts';
import { clockCommandArbs, passDay } from './tryon-clock-commands.ts';
import { commandArbs, type Machine } from './tryon-commands.ts';
import { faultCommandArbs } from './tryon-fault-commands.ts';
import { keyCommandArbs } from './tryon-key-commands.ts';
import { limitCommandArbs } from './tryon-limit-commands.ts';
import { answerOf, observe, readTryOn, type Model, type Photos, type Real } from './tryon-model.ts';
import { StartCommand, uploadImage, type UploadKind } from './tryon-start-command.ts';

const raised = {
  starts: raisedLimits.startsPerMinute,
  polls: raisedLimits.pollsPerMinute,
  uploads: raisedLimits.uploadsPerMinute,
};

/** Declared per configuration: with test control the limits are raised and each run gets fresh accounts. */
const withControl = inject('suiteConfig').control !== undefined;
const numRuns = withControl ? 8 : 2;
const startsPerRun = withControl ? 6 : 3;
const maxCommands = 15;
/**
 * With test control each run's account is fresh, so its balance is checked at the end (and after every move
 * of the clock).
 */
const balanceRules: RequirementId[] = withControl
  ? ['SVC-ONE-CREDIT-PER-FINISHED-TRYON', 'SVC-FAILED-TRYON-REFUNDED']
  : [];
/**
 * Result images are fetched on any target; with test control the clock moves across their 24 hours and the
 * Idempotency-Keys' retention.
 */
const resultRules: RequirementId[] = ['RES-RESULT-URL-ON-SUCCESS', 'SVC-RESULT-AI-LABEL', 'AUTH-RESULT-URL-PUBLIC'];
const clockRules: RequirementId[] = withControl
  ? ['RES-RESULT-URL-VALID-24H', 'CREATE-IDEMPOTENCY-RETENTION-IMPL-DEFINED']
  : [];
/**
 * History, with test control only (without it nothing can change a key or a limit mid-run, and these
 * requirements are judged by their own tests or skipped there with the reason): the account's key rotated,
 * or revoked and replaced, after use (tryon-key-commands.ts); its start limit lowered and raised again
 * (tryon-limit-commands.ts); and, where scenario images are declared, a transient refusal at start
 * (tryon-fault-commands.ts). The rest of the run is judged after them.
 */
const historyRules: RequirementId[] = withControl
  ? [
      'AUTH-ONE-ACTIVE-KEY',
      'AUTH-REVOKED-KEY-401',
      'ACCOUNT-FREE-CREDITS-ONCE',
      'ERR-RATE-LIMITED',
      'LIMIT-429-RETRY-AFTER',
      'LIMIT-STARTS-RAISED-ON-REQUEST',
    ]
  : [];
const refusalRules: RequirementId[] = withControl
  ? ['ERR-INTERNAL-ERROR', 'ERR-START-FAILED', 'ERR-UNAVAILABLE', 'STATE-NOT-STARTED-NO-CREDIT-NO-STATE']
  : [];
/** At documented limits every run waits for the starts window (12 a minute). */
const timeoutMs = withControl ? 120_000 : 900_000;

/** Runs the machine `numRuns` times, each on accounts of its own when the target has test control. */
async function runMachine(t: ConformanceContext, o: Machine): Promise<void> {
  const api = new Api(t.target);
  const [person, personPng, failingPerson, garment] = await Promise.all([
    makePersonPhoto(),
    makePersonPhoto({ format: 'png' }),
    makePersonPhoto({ scenario: 'generation-fails' }),
    makeGarmentImage({ format: 'png' }),
  ]);
  const photos: Photos = { person, personPng, failingPerson, garment };
  const { control } = t.target;

  let firstPerson = 0;
  const setup = async (): Promise<{ model: Model; real: Real; credits: number | undefined }> => {
    const actor = control ? await t.target.freshAccount(raised) : t.target.primary;
    const other = o.other ? (control ? await t.target.freshAccount(raised) : t.target.second) : undefined;
    // A fresh account's balance moves only with this run, so it can be checked at the end and after each
    // move of the clock.
    const credits = control ? await balanceIfRead(t.target, actor.key) : undefined;
    const real: Real = { t, api, actor, other, photos, control, credits };
    const model: Model = { images: [], tryOns: [], startsLeft: startsPerRun, clock: 0, oldKeys: [] };
    // Both formats of person photo ("Formats | JPEG or PNG") from the start; later uploads draw theirs.
    const kinds: Array<[UploadKind, 'jpeg' | 'png']> = [
      ['person', 'jpeg'],
      ['person', 'png'],
      ...(o.failing ? [['failing person', 'jpeg'] as [UploadKind, 'jpeg']] : []),
      ['garment', 'png'],
    ];
    model.images.push(...(await Promise.all(kinds.map(([k, f]) => uploadImage(model, real, k, f)))));
    // Each run begins with one try-on of each kind (#0, #1), so that polls and replays have something to pick.
    // The first ordinary start takes the JPEG and the PNG person photo in turn, so both formats' results come early.
    firstPerson += 1;
    for (const kind of o.failing ? (['normal', 'generation-fails'] as const) : (['normal'] as const))
      await new StartCommand(kind, firstPerson % 2, 0, false).run(model, real);
    return { model, real, credits };
  };

  /**
   * Polls every try-on to its final state (checking each view), lets a day pass (test control), then checks
   * the balance of a fresh account.
   */
  const settle = async (model: Model, real: Real, credits: number | undefined): Promise<void> => {
    for (const entry of model.tryOns) {
      if (entry.status !== 'pending') continue;
      const ex = await readTryOn(real, entry, `settle try-on ${entry.id}`, await api.waitFinal(real.actor, entry.id));
      // "poll `GET /tryons/{id}` until the status is `success` or `failed`"; clients "give up after a few minutes".
      t.must('SVC-POLL-UNTIL-FINAL', () =>
        expect(answerOf(ex).status, `try-on ${entry.id} never left pending`).not.toBe('pending'),
      );
      observe(real, entry, answerOf(ex), 'final GET', model.clock);
    }
    // With test control, a day passes once all is final: final states, the balance and result images are
    // checked again across it.
    if (credits !== undefined && real.control) await passDay(model, real);
    // Every final state is read once more: a terminal state must never change.
    for (const entry of model.tryOns)
      observe(
        real,
        entry,
        answerOf(await readTryOn(real, entry, `re-read try-on ${entry.id}`)),
        'final re-read',
        model.clock,
      );
    const successes = model.tryOns.filter((e) => e.status === 'success').length;
    const failures = model.tryOns.length - successes;
    const ordinary = model.tryOns.filter((e) => !e.failing);
    tally.success += ordinary.filter((e) => e.status === 'success').length;
    tally.failed += ordinary.filter((e) => e.status === 'failed').length;
    if (credits !== undefined) {
      // "Pricing: 1 credit per finished try-on. A try-on that fails ... is refunded automatically."
      // Charges above the successes are a missing refund when there were failures, else a double charge.
      const used = credits - (await api.credits(real.actor));
      const rule = failures > 0 && used > successes ? 'SVC-FAILED-TRYON-REFUNDED' : 'SVC-ONE-CREDIT-PER-FINISHED-TRYON';
      t.must(rule, () =>
        expect(
          used,
          `credits used by ${model.tryOns.length} try-ons, ${successes} successful, ${failures} failed`,
        ).toBe(successes),
      );
    }
  };
  /**
   * How the ordinary (unmarked) try-ons ended: the spec lets any of them fail ("any failure while the image
   * is made").
   */
  const tally = { success: 0, failed: 0 };

  await t.check(
    fc.asyncProperty(
      fc.commands(
        [
          ...commandArbs(o),
          ...clockCommandArbs(control !== undefined),
          ...keyCommandArbs(control !== undefined),
          ...limitCommandArbs(control !== undefined),
          ...faultCommandArbs(control !== undefined, o.failing),
        ],
        { maxCommands, size: 'max' },
      ),
      async (cmds) => {
        const { model, real, credits } = await setup();
        try {
          await fc.asyncModelRun(() => Promise.resolve({ model, real }), cmds);
        } catch (error) {
          // Still wait for what was started, so reservations of failed try-ons go back to the budget.
          await settle(model, real, undefined).catch(() => undefined);
          throw error;
        }
        await settle(model, real, credits);
      },
    ),
    numRuns,
  );
  t.choose(
    'ordinary-generation-outcome',
    `${tally.success} success, ${tally.failed} failed (refunded)`,
    'STATE-PENDING-TO-FAILED',
  );
}

/**
 * At documented limits: every command may be a start, a poll or an upload; settling polls each try-on; the
 * other account uploads its own two images once.
 */
const perRun = { starts: maxCommands, polls: maxCommands + startsPerRun * 13, uploads: 6 + maxCommands };

describe('state machine', () => {
  conformance(
    'moves each try-on only from pending to success or failed, under random starts, sync starts, polls, replays and uploads',
    {
      covers: [
        'STATE-CREATE-STARTS-PENDING',
        'STATE-PENDING-TO-SUCCESS',
        'STATE-TERMINAL-TRANSITIONS-IMPL-DEFINED',
        'RES-TRYON-ID-RETURNED-ON-CREATE',
        'RES-TRYON-STATUS-VALUES',
        'RES-RESULT-URL-NULL-UNLESS-SUCCESS',
        'RES-RESULT-URL-ABSENT-FROM-CREATE',
        'RES-POLL-URL-VALUE',
        'RES-POLL-URL-ONLY-CREATE-AND-SYNC-202',
        'RES-IMAGE-ID-REUSABLE-WITHIN-24H',
        'CREATE-IDEMPOTENCY-REPLAY',
        'CREATE-ACCEPTED-IS-200',
        'CREATE-RESPONSE-STATUS-PENDING',
        'SYNC-SAME-CONTRACT-AS-CREATE',
        'SVC-POLL-UNTIL-FINAL',
        ...balanceRules,
        ...resultRules,
        ...clockRules,
        ...historyRules,
      ],
      needs: [],
      credits: numRuns * startsPerRun,
      starts: numRuns * perRun.starts,
      polls: numRuns * perRun.polls,
      uploads: numRuns * perRun.uploads,
      timeoutMs,
    },
    (t) => runMachine(t, { failing: false, other: false }),
  );

  conformance(
    'keeps the state machine with generation failures and a second account: failed is final with a message, foreign ids are not found',
    {
      covers: [
        'STATE-PENDING-TO-FAILED',
        'STATE-FAILED-READ-IS-200',
        'STATE-TERMINAL-TRANSITIONS-IMPL-DEFINED',
        'RES-TRYON-MESSAGE-ON-FAILED',
        'RES-RESULT-URL-NULL-UNLESS-SUCCESS',
        'AUTH-FOREIGN-TRYON-NOT-FOUND',
        'AUTH-FOREIGN-IMAGE-ID-INVALID',
        'CREATE-IDEMPOTENCY-REPLAY',
        ...balanceRules,
        ...resultRules,
        ...clockRules,
        ...historyRules,
        ...refusalRules,
      ],
      needs: ['scenarios', 'second-account'],
      credits: numRuns * startsPerRun,
      starts: numRuns * perRun.starts,
      polls: numRuns * perRun.polls,
      uploads: numRuns * perRun.uploads,
      timeoutMs,
    },
    (t) => runMachine(t, { failing: true, other: true }),
  );
});
