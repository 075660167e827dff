/**
 * Test control's limits updates are partial (openapi-control.yaml: the fields sent change, the others stay),
 * and the store is asynchronous: updates of different fields sent at once must all be kept, none lost to
 * another's read of the limits before its write.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => h?.close());

describe('parallel limits updates of one account', () => {
  it('keeps every field sent, whichever update lands last', async () => {
    const { accountId } = await h.newAccount();
    const updates = [{ startsPerMinute: 5 }, { pollsPerMinute: 7 }, { uploadsPerMinute: 9 }, { uploadQuotaBytes: 11 }];
    const answers = await Promise.all(updates.map((body) => h.control('PUT', `/accounts/${accountId}/limits`, body)));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
    expect(await h.server.context.store.limitsOf(accountId)).toEqual({
      startsPerMinute: 5,
      pollsPerMinute: 7,
      uploadsPerMinute: 9,
      uploadQuotaBytes: 11,
    });
  });
});
