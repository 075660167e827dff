/**
 * Uploaded image ids as the traffic shows them used (spec: Uploaded image, "Only the account that
 * uploaded an image may use its id.", "An id may be used in any number of try-ons within its 24
 * hours.", expiresAt "After it the id is permanently invalid."; Authentication 6, "another account's
 * image id gives `INVALID_IMAGE_ID`"). A start naming ids the traffic saw uploaded:
 * - by another account (both keys tied to their accounts by test control, key-book.ts): must not be
 *   accepted; 400 INVALID_IMAGE_ID keeps it;
 * - by its own account (any of its keys), every id in the body, with no clock move since and well
 *   within the day: must not get 400 INVALID_IMAGE_ID;
 * - by its own account, past the id's `expiresAt` by the least the server's clock can read
 *   (server-clock.ts): must not be accepted.
 * Replays are left alone (the server answered the key, not the body).
 */
import type { RequirementId } from '../../contract/requirements.ts';
import { CappedMap } from '../capped-map.ts';
import type { AccountDigest } from '../traffic-exchange.ts';
import type { TrafficView } from '../traffic-view.ts';
import { answerFailed, codeOf } from './answer-finding.ts';
import type { PassiveRule, RuleSetup } from './rule.ts';
import { bodyObject } from './start-request-faults.ts';

const family = 'image ids';

/** Own ids are judged usable only this long after the upload: the day less an hour of any clock skew. */
const surelyValidMs = 23 * 3600 * 1000;

interface Upload {
  readonly account: AccountDigest;
  readonly key: AccountDigest;
  readonly endedAt: number;
  readonly expiresAt: number | undefined;
}

const idFields = [
  ['personImageId', 'personImageUrl'],
  ['garmentImageId', 'garmentImageUrl'],
] as const;

export function imageIds(setup: RuleSetup): PassiveRule {
  const { ledger, keys, starts, caps, clock } = setup;
  const uploads = new CappedMap<string, Upload>(caps.accounts * caps.tryOnsPerAccount);
  ledger.declare(family, 'AUTH-FOREIGN-IMAGE-ID-INVALID', "a start naming another account's uploaded id");
  ledger.declare(family, 'RES-IMAGE-ID-REUSABLE-WITHIN-24H', "a start naming its account's own fresh uploads");
  ledger.declare(family, 'RES-IMAGE-ID-INVALID-AFTER-EXPIRY', 'a start naming an id past its expiresAt');
  const fail = (v: TrafficView, id: RequirementId, title: string, want: string) =>
    answerFailed(ledger, family, 'image_id', v, { id, title, want });
  return {
    family,
    notKept: () => uploads.evicted,
    observe(v) {
      if (v.op === 'uploadImage' && v.status === 200) return noteUpload(v);
      if (v.op !== 'createTryOn' && v.op !== 'createTryOnSync') return;
      if (v.te.account === 'none' || v.te.partial?.request === true || starts.isReplay(v)) return;
      const body = bodyObject(v.exchange.request.body);
      if (body === undefined) return;
      const named = idFields.flatMap(([id, url]) =>
        typeof body[id] === 'string' && body[url] === undefined ? [uploads.get(body[id] as string)] : [],
      );
      if (named.length === 0) return;
      const accepted = v.status >= 200 && v.status < 300;
      const refused = v.status === 400 && codeOf(v) === 'INVALID_IMAGE_ID';
      const foreign = named.find(
        (u) => u !== undefined && u.account !== v.te.account && keys.tied(u.key) && keys.tied(v.key),
      );
      if (foreign !== undefined) {
        if (refused) ledger.judged(family, 'AUTH-FOREIGN-IMAGE-ID-INVALID', v.te);
        else if (accepted)
          fail(
            v,
            'AUTH-FOREIGN-IMAGE-ID-INVALID',
            "A start naming another account's uploaded image id was accepted",
            '400 INVALID_IMAGE_ID: "another account\'s image id gives `INVALID_IMAGE_ID`"',
          );
        return;
      }
      const least = clock.leastAt(v.te.startedAt);
      const expired = named.find((u) => u?.expiresAt !== undefined && least !== undefined && least > u.expiresAt);
      if (expired !== undefined) {
        if (refused) ledger.judged(family, 'RES-IMAGE-ID-INVALID-AFTER-EXPIRY', v.te);
        else if (accepted)
          fail(
            v,
            'RES-IMAGE-ID-INVALID-AFTER-EXPIRY',
            'A start naming an image id past its expiresAt was accepted',
            '400 INVALID_IMAGE_ID: "After it the id is permanently invalid."',
          );
        return;
      }
      const fresh = named.every(
        (u) =>
          u !== undefined &&
          u.account === v.te.account &&
          clock.movedAt < u.endedAt &&
          v.te.startedAt - u.endedAt < surelyValidMs,
      );
      if (!fresh) return;
      if (accepted) ledger.judged(family, 'RES-IMAGE-ID-REUSABLE-WITHIN-24H', v.te);
      else if (refused)
        fail(
          v,
          'RES-IMAGE-ID-REUSABLE-WITHIN-24H',
          "A start naming its account's own fresh uploads got INVALID_IMAGE_ID",
          'accepted: "An id may be used in any number of try-ons within its 24 hours."',
        );
    },
  };

  function noteUpload(v: TrafficView): void {
    const json = v.exchange.response.json as { id?: unknown; expiresAt?: unknown } | undefined;
    if (typeof json?.id !== 'string' || v.te.account === 'none' || uploads.get(json.id) !== undefined) return;
    const expiresAt = typeof json.expiresAt === 'string' ? Date.parse(json.expiresAt) : Number.NaN;
    uploads.set(json.id, {
      account: v.te.account,
      key: v.key,
      endedAt: v.te.endedAt,
      expiresAt: Number.isFinite(expiresAt) ? expiresAt : undefined,
    });
  }
}
