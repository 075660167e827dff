/**
 * Re-renders reports/bench/bench.md from reports/bench/bench.json without measuring anything
 * (`npx tsx bench/render.ts`): for a change to the renderer. The JSON must match its schema.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { benchProblems } from './bench-schema.ts';
import { repoRoot } from './common.ts';
import { renderMarkdown } from './markdown.ts';
import type { BenchReport } from './report.ts';

const dir = join(repoRoot, 'reports', 'bench');
const report = JSON.parse(readFileSync(join(dir, 'bench.json'), 'utf8')) as BenchReport;
const problems = benchProblems(report);
if (problems.length > 0) {
  process.stderr.write(
    `reports/bench/bench.json does not match bench/bench.schema.json:\n  ${problems.join('\n  ')}\n`,
  );
  process.exit(1);
}
writeFileSync(join(dir, 'bench.md'), renderMarkdown(report));
process.stdout.write('Wrote reports/bench/bench.md from bench.json.\n');
