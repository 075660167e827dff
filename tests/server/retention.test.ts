/** Spec: "Uploaded files are deleted automatically within 35 days." The sweeper runs on the server clock. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makePersonPhoto } from '../../src/fixtures/images.ts';
import { startHarness, upload, type Harness } from './harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => h?.close());

describe('retention', () => {
  it('deletes an uploaded file within 35 days, and keeps it for the first 24 hours', async () => {
    const { apiKey } = await h.newAccount();
    const res = await upload(h, apiKey, await makePersonPhoto());
    const id: string = res.json.id;
    const stored = () => h.server.context.store.findImage(id)?.bytes ?? null;
    expect(stored()).not.toBeNull();
    await h.control('POST', '/clock/advance', { seconds: 23 * 3600 });
    expect(stored()).not.toBeNull();
    await h.control('POST', '/clock/advance', { seconds: 35 * 24 * 3600 - 23 * 3600 });
    expect(stored()).toBeNull();
    expect(h.violations).toEqual([]);
  });
});
