/**
 * Report defects of the suite, against the reference server (embedded, with test control): a test that
 * judges a sync start another test made has that exchange as evidence of its own, so its verdict is not
 * "not observable"; and a reuse of a key after the clock moved that is refused for its expired image ids
 * is not recorded as the key's retention.
 */
import type { TaskMeta } from 'vitest';
import type { Reporter, TestModule } from 'vitest/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedTarget, type EmbeddedTarget } from '../../src/run/embedded-target.ts';
import { runSuite } from '../../src/run/run-suite.ts';

let embedded: EmbeddedTarget;
const silent: Reporter = {};

beforeAll(async () => {
  embedded = await startEmbeddedTarget({ creditBudget: 100, seed: 7, profile: 'quick' });
}, 60_000);
afterAll(async () => {
  await embedded?.close();
});

/** The tests the grep selected: those that ran. */
function testsOf(modules: readonly TestModule[]): Array<{ name: string; meta: TaskMeta }> {
  return modules.flatMap((m) =>
    [...m.children.allTests()]
      .filter((t) => t.result().state !== 'skipped' || t.meta().skipReason !== undefined)
      .map((t) => ({ name: t.fullName, meta: t.meta() })),
  );
}

describe('evidence and choices of tests that share or outlive a request', () => {
  it('gives the sync-wait test the sync start it judges, although an earlier test sent it', async () => {
    const modules = await runSuite(embedded.config, '(answers 202 with pollUrl|holds a sync request)', [silent]);
    const tests = testsOf(modules);
    expect(tests.map((t) => t.name)).toHaveLength(2);
    const holds = tests.find((t) => t.name.includes('holds a sync request'));
    expect(holds?.meta.evidence?.some((e) => e.curl.includes('/tryons/sync'))).toBe(true);
  }, 120_000);

  it('records no key retention from a reuse refused because its uploaded images expired', async () => {
    const { fixtureBaseUrl: _host, fixtureBehaviours: _routes, ...withoutFixtureHost } = embedded.config;
    const modules = await runSuite(withoutFixtureHost, 'records whether a key reused after 24 h', [silent]);
    const [retention, ...others] = testsOf(modules);
    expect(others).toEqual([]);
    expect(retention?.meta.inconclusive).toContain('says nothing of how long the key is kept');
    expect(retention?.meta.choices ?? []).not.toContainEqual(
      expect.objectContaining({ point: 'idempotency-retention', value: expect.stringContaining('INVALID_IMAGE_ID') }),
    );
  }, 120_000);
});
