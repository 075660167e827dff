/**
 * A tiny suite for progress.test.ts: run by a nested vitest, it waits "on a rate limit" through
 * the same hook the suite's pacer uses, so the test can see the event cross from worker to reporter.
 */
import { test } from 'vitest';
import { forwardProgressEvents } from '../../../suite/progress-bridge.ts';
import { progressEvents } from '../../../shared/progress-events.ts';

forwardProgressEvents();

test('waits on the starts limit', {
  meta: { requirements: ['LIMIT-STARTS-12-PER-MINUTE'], cost: { credits: 2, starts: 13, polls: 0, uploads: 0 } },
}, () => {
  progressEvents.emit('wait', { what: 'the starts rate limit', ms: 7000, exact: true });
});

test('is skipped for want of a capability', { meta: { requirements: ['AUTH-REVOKED-KEY-401'] } }, (ctx) => {
  ctx.task.meta.skipReason = 'needs revoked-key: not offered';
  ctx.skip('needs revoked-key: not offered');
});
