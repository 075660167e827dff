import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ToolkitError } from '../shared/toolkit-errors.ts';
import { maxExpectFileBytes, readExpectFile } from './expect-file.ts';

const dir = mkdtempSync(join(tmpdir(), 'tryon-expect-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let n = 0;
function fileWith(text: string, ext = 'yaml'): string {
  n += 1;
  const file = join(dir, `expect-${n}.${ext}`);
  writeFileSync(file, text);
  return file;
}

function refusal(file: string): string {
  try {
    readExpectFile(file, false);
  } catch (error) {
    expect(error).toBeInstanceOf(ToolkitError);
    expect((error as ToolkitError).exitCode).toBe(2);
    const message = (error as ToolkitError).message;
    expect(message).not.toContain('\n');
    return message.replace(file, 'FILE');
  }
  throw new Error('the file was accepted');
}

describe('readExpectFile', () => {
  it('reads YAML entries with a reason, an optional link and an optional expiry date', () => {
    const file = fileWith(
      [
        'expectations:',
        '  - id: ERR-CONSENT-REQUIRED',
        '    reason: the mock answers its first example',
        '    link: https://tickets.example/PRISM-1',
        '    expires: 2027-01-31',
        '  - id: AUTH-BEARER-REQUIRED',
        '    reason: "no auth on the mock"',
      ].join('\n'),
    );
    expect(readExpectFile(file, true)).toEqual({
      file,
      strict: true,
      entries: [
        {
          id: 'ERR-CONSENT-REQUIRED',
          reason: 'the mock answers its first example',
          link: 'https://tickets.example/PRISM-1',
          expires: '2027-01-31',
        },
        { id: 'AUTH-BEARER-REQUIRED', reason: 'no auth on the mock' },
      ],
    });
  });

  it('reads the same from JSON', () => {
    const file = fileWith('{"expectations": [{"id": "AUTH-BEARER-REQUIRED", "reason": "r"}]}', 'json');
    expect(readExpectFile(file, false).entries).toEqual([{ id: 'AUTH-BEARER-REQUIRED', reason: 'r' }]);
  });

  it.each([
    ['a missing file', null, 'run: --expect FILE: cannot be read (ENOENT)'],
    ['not YAML', 'expectations: [unclosed', 'run: --expect FILE: not valid YAML or JSON: '],
    ['an empty file', '', 'run: --expect FILE: the file: must be object'],
    ['a bare list', '- id: AUTH-BEARER-REQUIRED\n  reason: r', 'run: --expect FILE: the file: must be object'],
    [
      'an entry without a reason',
      'expectations:\n  - id: AUTH-BEARER-REQUIRED',
      "expectations[0]: must have required property 'reason'",
    ],
    [
      'an unknown field',
      'expectations:\n  - {id: AUTH-BEARER-REQUIRED, reason: r, ticket: 1}',
      "must NOT have additional properties ('ticket')",
    ],
    [
      'an unknown ID',
      'expectations:\n  - {id: AUTH-NOPE, reason: r}',
      "expectations[0].id: no requirement 'AUTH-NOPE' in the catalogue",
    ],
    [
      'an ID twice',
      'expectations:\n  - {id: AUTH-BEARER-REQUIRED, reason: r}\n  - {id: AUTH-BEARER-REQUIRED, reason: s}',
      "expectations[1].id: 'AUTH-BEARER-REQUIRED' is listed twice",
    ],
    [
      'a date that does not exist',
      'expectations:\n  - {id: AUTH-BEARER-REQUIRED, reason: r, expires: 2027-02-30}',
      'expectations[0].expires: must match format "date"',
    ],
    [
      'a date in another form',
      'expectations:\n  - {id: AUTH-BEARER-REQUIRED, reason: r, expires: 31.01.2027}',
      'expectations[0].expires: must match format "date"',
    ],
    [
      'a link that is not http(s)',
      'expectations:\n  - {id: AUTH-BEARER-REQUIRED, reason: r, link: "javascript:alert(1)"}',
      'expectations[0].link: must match pattern',
    ],
    ['an ID that is a number', 'expectations:\n  - {id: 12, reason: r}', 'expectations[0].id: must be string'],
  ])('refuses %s with one line', (_name, text, message) => {
    const file = text === null ? join(dir, 'missing.yaml') : fileWith(text);
    expect(refusal(file)).toContain(message);
  });

  it('refuses a file over its size bound without reading it all', () => {
    const file = fileWith(`expectations: []\n${'#'.repeat(maxExpectFileBytes)}\n`);
    expect(refusal(file)).toBe('run: --expect FILE: larger than 256 KiB');
  });

  it('refuses a file whose aliases would expand it', () => {
    const lines = ['a0: &a0 [x, x, x, x, x, x, x, x, x, x]'];
    for (let i = 1; i < 12; i++)
      lines.push(
        `a${i}: &a${i} [${Array(10)
          .fill(`*a${i - 1}`)
          .join(', ')}]`,
      );
    expect(refusal(fileWith(lines.join('\n')))).toMatch(/^run: --expect FILE: not valid YAML or JSON: /);
  });
});
