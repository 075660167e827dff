/**
 * A caller of the programmatic API in a process of its own (for run-conformance.test.ts): runs one
 * test against the target given in TRYON_BASE_URL, then prints what runConformance returned and
 * what it left in the process's exit status.
 */
import { runConformance } from '../../src/index.ts';

const before = process.exitCode;
const done = await runConformance({
  baseUrl: process.env.TRYON_BASE_URL ?? '',
  apiKey: 'vto_live_child',
  grep: process.env.TRYON_GREP ?? '',
  profile: 'quick',
  seed: 7,
  ...(process.env.TRYON_EXPECT !== undefined && { expect: process.env.TRYON_EXPECT }),
});
const outcome = done.report.summary.outcome;
const expected = done.report.expectations?.entries.map((e) => `${e.id}:${e.status}`) ?? [];
const said = { returned: done.exitCode, outcome, before: before ?? null, after: process.exitCode ?? null, expected };
process.stdout.write(`${JSON.stringify(said)}\n`);
