/**
 * The breaking-change check (scripts/check-breaking.ts): planted breaks of each class the check
 * exists for fail, additive changes pass, and a deliberate break passes only with a raised
 * info.version and a CHANGELOG.md line. The CLI is run on temporary files for the exit codes.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { breakingChanges } from '../../scripts/breaking/compare.ts';
import { breakingVerdict, changelogNames, compareVersions } from '../../scripts/breaking/policy.ts';
import { paths } from '../../src/contract/paths.ts';

// biome-ignore lint/suspicious/noExplicitAny: test mutations of parsed YAML
type Doc = Record<string, any>;

const releasedPath = join(paths.root, 'contract', 'released', 'openapi.yaml');
const releasedText = readFileSync(releasedPath, 'utf8');
const released = (): Doc => parse(releasedText) as Doc;
const changed = (mutate: (d: Doc) => void): Doc => {
  const d = released();
  mutate(d);
  return d;
};

const breaks: Array<[string, (d: Doc) => void, RegExp]> = [
  [
    'a renamed response field',
    (d) => {
      const s = d.components.schemas.TryOnStarted;
      s.properties.pollURL = s.properties.pollUrl;
      delete s.properties.pollUrl;
      s.required = ['id', 'status', 'pollURL'];
    },
    /property `pollUrl`/,
  ],
  [
    'a narrowed enum',
    (d) => {
      d.components.schemas.ErrorCode.enum = d.components.schemas.ErrorCode.enum.filter(
        (c: string) => c !== 'UNAVAILABLE',
      );
    },
    /possible values of `code`/,
  ],
  [
    'a new required request field',
    (d) => {
      d.components.schemas.CreateTryOnRequest.required = ['consent', 'title'];
    },
    /required status to `title` in Request Body/,
  ],
  ['a removed operation', (d) => delete d.paths['/account'], /Removed\] operation GET \/account/],
  [
    'a renamed operation',
    (d) => {
      d.paths['/tryons'].post.operationId = 'startTryOn';
    },
    /operationId `createTryOn` of POST \/tryons with `startTryOn`/,
  ],
  [
    'a changed status',
    (d) => {
      const r = d.paths['/tryons'].post.responses;
      r['201'] = r['200'];
      delete r['200'];
    },
    /Removed\] Response 200/,
  ],
  [
    'a changed error code',
    (d) => {
      d.components.responses.ConsentRequired.content['application/json'].schema.allOf[1].properties.code.enum = [
        'CONSENT_MISSING',
      ];
    },
    /possible values of `code` in Response 403/,
  ],
];

describe('breakingChanges', () => {
  it('finds none between the released description and itself', () => {
    expect(breakingChanges(released(), released())).toEqual([]);
  });

  it('finds none between the released description and openapi.yaml', () => {
    expect(breakingChanges(released(), parse(readFileSync(paths.openapi, 'utf8')))).toEqual([]);
  });

  it.each(breaks)('finds %s', (_name, mutate, description) => {
    const changes = breakingChanges(released(), changed(mutate));
    expect(changes.some((c) => description.test(c.description))).toBe(true);
  });

  it('passes an added optional request field and an added response field', () => {
    const after = changed((d) => {
      d.components.schemas.CreateTryOnRequest.properties.note = { type: 'string', example: 'gift' };
      d.components.schemas.TryOnStarted.properties.createdAt = { type: 'string', format: 'date-time' };
    });
    expect(breakingChanges(released(), after)).toEqual([]);
  });

  it('leaves its inputs as they were', () => {
    const before = released();
    const after = changed((d) => delete d.paths['/account']);
    const copies = [structuredClone(before), structuredClone(after)];
    breakingChanges(before, after);
    expect([before, after]).toEqual(copies);
  });
});

describe('breakingVerdict', () => {
  const changes = [{ path: 'paths//account/get', description: '[Removed] operation GET /account' }];
  const base = { changes, releasedVersion: '1.0.0', currentVersion: '1.0.0', changelog: '' };

  it('fails a break without a version bump or a changelog line, and says what is missing', () => {
    const verdict = breakingVerdict(base);
    expect(verdict.ok).toBe(false);
    expect(verdict.lines.at(-1)).toMatch(/raise info.version above 1.0.0.*CHANGELOG.md/);
  });

  it('fails a bumped break the changelog does not name', () => {
    expect(breakingVerdict({ ...base, currentVersion: '2.0.0', changelog: '## openapi.yaml 1.0.0' }).ok).toBe(false);
  });

  it('passes a deliberate break: bumped, and named in the changelog', () => {
    expect(
      breakingVerdict({ ...base, currentVersion: '2.0.0', changelog: '## openapi.yaml 2.0.0\n- dropped' }).ok,
    ).toBe(true);
  });

  it('passes no change whatever the versions', () => {
    expect(breakingVerdict({ ...base, changes: [] }).ok).toBe(true);
  });

  it('compares versions numerically and names them exactly', () => {
    expect(compareVersions('1.10.0', '1.9.2')).toBe(1);
    expect(compareVersions('2.0.0-rc.1', '2.0.0')).toBe(-1);
    expect(compareVersions('1.0', '1.0.0')).toBe(0);
    expect(changelogNames('openapi.yaml 2.0.0', '2.0.0')).toBe(true);
    expect(changelogNames('openapi.yaml 2.0.01', '2.0.0')).toBe(false);
    expect(changelogNames('openapi.yaml 200', '2.0.0')).toBe(false);
  });
});

describe('npm run check:breaking', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'check-breaking-'));
  });
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  async function check(doc: Doc | undefined, changelog = ''): Promise<{ code: number; output: string }> {
    const current = join(dir, `current-${Math.random().toString(36).slice(2)}.yaml`);
    if (doc) await writeFile(current, stringify(doc));
    const log = join(dir, 'CHANGELOG.md');
    await writeFile(log, changelog);
    const script = join(paths.root, 'scripts', 'check-breaking.ts');
    const args = ['--import', 'tsx', script, '--released', releasedPath, '--current', current, '--changelog', log];
    return promisify(execFile)(process.execPath, args, { cwd: paths.root }).then(
      ({ stdout, stderr }) => ({ code: 0, output: stdout + stderr }),
      (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, output: e.stdout + e.stderr }),
    );
  }

  it('exits 1 on a planted break and names it', async () => {
    const result = await check(changed((d) => delete d.paths['/account']));
    expect(result.code).toBe(1);
    expect(result.output).toMatch(/GET \/account/);
  });

  it('exits 0 on an added optional field', async () => {
    const result = await check(
      changed((d) => {
        d.components.schemas.CreateTryOnRequest.properties.note = { type: 'string' };
      }),
    );
    expect(result).toEqual({ code: 0, output: expect.stringMatching(/No breaking change/) });
  });

  it('exits 0 on a deliberate break with a bump and a changelog line', async () => {
    const doc = changed((d) => {
      delete d.paths['/account'];
      d.info.version = '2.0.0';
    });
    expect((await check(doc, '## openapi.yaml 2.0.0\n- GET /account removed\n')).code).toBe(0);
  });

  it('exits 2 with one line when a file is missing', async () => {
    const result = await check(undefined);
    expect(result.code).toBe(2);
    expect(result.output.trim().split('\n')).toHaveLength(1);
    expect(result.output).toMatch(/^check-breaking: /);
  });
}, 60_000);
