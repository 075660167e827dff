/**
 * `npm run check:breaking`: compares openapi.yaml with its last released version
 * (contract/released/openapi.yaml; the repository has no release tags) and fails on a change that
 * breaks existing clients, unless the break is deliberate: info.version raised and CHANGELOG.md
 * naming `openapi.yaml <version>`. Releasing a version means copying openapi.yaml over the baseline.
 *
 *   npx tsx scripts/check-breaking.ts [--released FILE] [--current FILE] [--changelog FILE]
 *
 * Exit 0 when it passes, 1 on an undeclared break, 2 on unreadable input.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { parse } from 'yaml';
import { paths } from '../src/contract/paths.ts';
import { breakingChanges } from './breaking/compare.ts';
import { breakingVerdict } from './breaking/policy.ts';

/** A description larger than this is refused unread (ours are under 100 KB). */
const maxBytes = 8 * 1024 * 1024;

function readDoc(file: string): { doc: unknown; version: string } {
  const text = readText(file);
  const doc = parse(text, { maxAliasCount: 100 }) as { info?: { version?: unknown } } | null;
  const version = doc?.info?.version;
  if (typeof version !== 'string') throw new Error(`${file}: no info.version`);
  return { doc, version };
}

function readText(file: string): string {
  const text = readFileSync(file, 'utf8');
  if (text.length > maxBytes) throw new Error(`${file}: larger than ${maxBytes} bytes`);
  return text;
}

function main(): number {
  const { values } = parseArgs({
    options: {
      released: { type: 'string', default: join(paths.root, 'contract', 'released', 'openapi.yaml') },
      current: { type: 'string', default: paths.openapi },
      changelog: { type: 'string', default: join(paths.root, 'CHANGELOG.md') },
    },
  });
  const released = readDoc(values.released);
  const current = readDoc(values.current);
  const changelog = readText(values.changelog);
  const verdict = breakingVerdict({
    changes: breakingChanges(released.doc, current.doc),
    releasedVersion: released.version,
    currentVersion: current.version,
    changelog,
  });
  for (const line of verdict.lines) (verdict.ok ? console.log : console.error)(line);
  return verdict.ok ? 0 : 1;
}

try {
  process.exitCode = main();
} catch (error) {
  console.error(`check-breaking: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 2;
}
