/** The client mutants still apply to src/sdk, each once, and each names a rule of the table. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { clientRules } from '../../sdk/spec-client-rules.ts';
import { applyEdits } from '../source/source-mutant.ts';
import { repoRoot } from './client-copy.ts';
import { clientMutants } from './client-mutants.ts';

describe('the client mutants', () => {
  it.each(clientMutants.map((m) => [m.name, m] as const))('%s applies to src/sdk and breaks a listed rule', (_n, m) => {
    expect(m.file.startsWith('src/sdk/'), `${m.name} should patch the client, not ${m.file}`).toBe(true);
    const source = readFileSync(join(repoRoot, m.file), 'utf8');
    expect(applyEdits(source, m)).not.toBe(source);
    const known = new Set(clientRules.map((r) => r.id));
    expect(
      m.breaks.filter((id) => !known.has(id)),
      'rules the table does not list',
    ).toEqual([]);
  });

  it('has unique names', () => {
    const names = clientMutants.map((m) => m.name);
    expect(new Set(names).size).toBe(names.length);
  });
});
