/** spec-answers.ts against the spec's own words: its Errors table and each endpoint's "Errors:" line. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { listOperations } from '../contract/openapi.ts';
import { paths } from '../contract/paths.ts';
import { requirementIds } from '../contract/requirements.ts';
import { parseSpecUnits } from '../contract/spec-units.ts';
import { codeRequirement, errorsTable, soleCodeOf, specAnswers } from './spec-answers.ts';

const units = parseSpecUnits(readFileSync(paths.proseSpec, 'utf8'));

const isCode = (s: string): boolean => /^[A-Z][A-Z0-9_]+$/.test(s);

/** The rows of the spec's Errors table: `| status | code | meaning | client action |`. */
function tableRows(): Array<{ readonly status: number; readonly code: string }> {
  return units
    .filter((u) => u.section === 'Errors' && u.kind === 'row')
    .map((u) => {
      const cells = u.text
        .replace(/^\||\|$/g, '')
        .split('|')
        .map((c) => c.trim());
      const [status = '', code = ''] = cells;
      if (cells.length !== 4 || !/^\d{3}$/.test(status) || !isCode(code)) {
        throw new Error(`spec line ${u.line}: not an Errors row: ${u.text}`);
      }
      return { status: Number(status), code };
    });
}

/** Reads "Errors: 400 A, B; 401 C (why); …." as status → codes, sorted; parenthesised meanings are prose. */
function errorsLine(text: string, line: number): Record<number, string[]> {
  const groups = text
    .replace(/^Errors:\s*/, '')
    .replace(/\([^)]*\)/g, '')
    .replace(/\.\s*$/, '')
    .split(';')
    .map((g) => g.trim());
  return Object.fromEntries(
    groups.map((group) => {
      const [status = '', ...codes] = group.split(/[\s,]+/).filter(Boolean);
      if (!/^\d{3}$/.test(status) || codes.length === 0 || !codes.every(isCode)) {
        throw new Error(`spec line ${line}: cannot read "${group}"`);
      }
      return [Number(status), codes.sort()];
    }),
  );
}

/** The operationId of an endpoint section's heading, `METHOD /path : title`. */
function operationIdOf(heading: string): string | undefined {
  const [method = '', path = ''] = heading.split(' ');
  return listOperations().find((op) => op.method === method.toLowerCase() && op.path === path)?.operationId;
}

/** What spec-answers.ts holds for an operation's errors, in the shape `errorsLine` reads. */
function heldErrors(operationId: string): Record<number, string[]> | undefined {
  const errors = specAnswers(operationId)?.errors;
  return errors && Object.fromEntries([...errors].map(([status, codes]) => [status, [...codes].sort()]));
}

const lines = units.filter((u) => u.section === 'Endpoints' && /^Errors:/.test(u.text));

describe('the spec answers the checks hold a target to', () => {
  it('give every code of the spec Errors table its status, and no other code', () => {
    const rows = tableRows();
    expect(rows.length).toBeGreaterThan(0);
    expect([...errorsTable].map(([code, status]) => ({ status, code }))).toEqual(rows);
  });

  it('know a requirement for every code of the table', () => {
    for (const { code } of tableRows()) expect(requirementIds, code).toContain(codeRequirement(code));
  });

  it('give a status its sole code only where the table has exactly one', () => {
    const rows = tableRows();
    for (const { status } of rows) {
      const codes = rows.filter((r) => r.status === status).map((r) => r.code);
      expect(soleCodeOf(status), String(status)).toBe(codes.length === 1 ? codes[0] : undefined);
    }
  });

  it('hold each endpoint to the list of its "Errors:" line', () => {
    expect(lines.map((u) => u.subsection)).toEqual([
      'POST /tryons : create try-on',
      'GET /tryons/{id} : get try-on',
      'POST /images : upload image',
    ]);
    for (const u of lines) {
      const operationId = operationIdOf(u.subsection ?? '');
      expect(operationId, u.subsection).toBeDefined();
      const errors = errorsLine(u.text, u.line);
      expect({ operationId, errors: heldErrors(operationId ?? '') }).toEqual({ operationId, errors });
    }
  });

  it('hold POST /tryons/sync to the list of POST /tryons, as its section says', () => {
    const sync = units.filter((u) => u.subsection === 'POST /tryons/sync : create try-on and wait');
    expect(sync.some((u) => /error list as `POST \/tryons`/.test(u.text))).toBe(true);
    const create = lines.find((u) => u.subsection === 'POST /tryons : create try-on');
    expect(heldErrors('createTryOnSync')).toEqual(create && errorsLine(create.text, create.line));
  });

  it('hold no list where the spec shows none (GET /account, result images)', () => {
    const account = units.filter((u) => u.subsection === 'GET /account : account credits');
    expect(account.some((u) => /errors and limits of this endpoint: not shown/.test(u.text))).toBe(true);
    const listed = new Set(['createTryOnSync', ...lines.map((u) => operationIdOf(u.subsection ?? ''))]);
    for (const op of listOperations().filter((o) => !listed.has(o.operationId))) {
      expect(specAnswers(op.operationId)?.errors, op.operationId).toBeUndefined();
    }
  });
});
