/**
 * Mutants: each breaks one rule of the spec on top of the real reference server, through the
 * mutating proxy. A mutant that survives a run is a defect in the suite. One file per family under
 * `families/` (and one per class of issue 12: scoping, retrying-clients, asynchrony); this file lists
 * them all and names the quick subset (one per family) for CI.
 */
import { asynchronyMutants } from './families/asynchrony.ts';
import { authMutants } from './families/auth.ts';
import { codesMutants } from './families/codes.ts';
import { creditsMutants } from './families/credits.ts';
import { idempotencyMutants } from './families/idempotency.ts';
import { limitsMutants } from './families/limits.ts';
import { resultsMutants } from './families/results.ts';
import { retryingClientMutants } from './families/retrying-clients.ts';
import { scopingMutants } from './families/scoping.ts';
import { stateMutants } from './families/state.ts';
import { syncMutants } from './families/sync.ts';
import { validationMutants } from './families/validation.ts';
import type { Mutation } from './mutating-proxy.ts';

export const mutants: readonly Mutation[] = [
  ...authMutants,
  ...validationMutants,
  ...codesMutants,
  ...idempotencyMutants,
  ...creditsMutants,
  ...stateMutants,
  ...limitsMutants,
  ...resultsMutants,
  ...syncMutants,
  ...scopingMutants,
  ...retryingClientMutants,
  ...asynchronyMutants,
];

/** `--quick`: one mutant per family, chosen to be fast and to exercise a different part of the suite each. */
export const quickMutants: readonly string[] = [
  'revoked-key-still-works',
  'http-url-accepted',
  'image-too-large-as-400',
  'replay-creates-new-tryon',
  'no-refund-on-failure',
  'message-missing-on-failed',
  'starts-window-per-endpoint',
  'ai-label-stripped-from-png',
  'sync-202-without-poll-url',
];
