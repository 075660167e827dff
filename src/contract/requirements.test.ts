/**
 * The requirement catalogue against the prose spec (all nine sections): every quote is verbatim,
 * every rule unit of the spec is covered, and the "not shown" points are recorded.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  allRequirements,
  requirement,
  requirementIds,
  requirements,
  specSections,
  type Capability,
  type Level,
  type Requirement,
  type RequirementId,
  type SpecSection,
} from './requirements.ts';
import { collapseWhitespace, informational, parseSpecUnits, splitSentences, type SpecUnit } from './spec-units.ts';

const markdown = readFileSync(new URL('../../spec/tryon-api-spec.md', import.meta.url), 'utf8');
const openapiText = readFileSync(new URL('../../openapi.yaml', import.meta.url), 'utf8');
const spec = collapseWhitespace(markdown);
const units = parseSpecUnits(markdown);
const catalogue = allRequirements();

const excerptsOf = (r: Requirement): string[] => [r.quote, ...(r.alsoStated ?? [])].map(collapseWhitespace);
const allExcerpts = catalogue.flatMap(excerptsOf);
const show = (u: SpecUnit): string =>
  `line ${u.line} [${u.section}${u.subsection === undefined ? '' : ` / ${u.subsection}`}] ${u.kind}: ${u.text}`;
const informationalKey = (u: SpecUnit): string | undefined =>
  Object.keys(informational).find((k) => u.text.includes(k));
const coveredByRequirement = (u: SpecUnit): boolean => allExcerpts.some((q) => u.text.includes(q));

function occurrences(text: string, needle: string): number[] {
  const found: number[] = [];
  for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + 1)) found.push(at);
  return found;
}

/** Sentences of a unit that no quote or restatement overlaps. */
function uncoveredSentences(u: SpecUnit): string[] {
  if (informationalKey(u) !== undefined) return [];
  const spans = allExcerpts.flatMap((q) => occurrences(u.text, q).map((at) => [at, at + q.length] as const));
  let cursor = 0;
  return splitSentences(u.text).filter((sentence) => {
    const start = u.text.indexOf(sentence, cursor);
    cursor = start + sentence.length;
    return !spans.some(([from, to]) => from < start + sentence.length && to > start);
  });
}

describe('requirement IDs', () => {
  const prefixes: Record<SpecSection, readonly string[]> = {
    'What the service does': ['SVC'],
    'Resources and their fields': ['RES', 'ACCOUNT'],
    'States and transitions': ['STATE'],
    Endpoints: ['CREATE', 'SYNC', 'GET', 'UPLOAD', 'ACCOUNT', 'ROUTING'],
    Authentication: ['AUTH'],
    Events: ['EVENTS'],
    Errors: ['ERR'],
    Limits: ['LIMIT'],
    Versioning: ['VER'],
  };

  it.each(requirementIds)('%s is an upper-case slug whose prefix names its section', (id) => {
    expect(id).toMatch(/^[A-Z]+(-[A-Z0-9]+)+$/);
    expect(prefixes[requirement(id).section]).toContain(id.split('-')[0]);
  });

  it('lists every catalogued requirement once, in catalogue order', () => {
    expect(requirementIds).toEqual(Object.keys(requirements));
    expect(catalogue.map((r) => r.id)).toEqual(requirementIds);
  });

  it('looks a requirement up with its ID attached', () => {
    expect(requirement('CREATE-IDEMPOTENCY-REPLAY')).toEqual({
      ...requirements['CREATE-IDEMPOTENCY-REPLAY'],
      id: 'CREATE-IDEMPOTENCY-REPLAY',
    });
  });

  it('rejects an unknown ID at compile time and at run time', () => {
    // @ts-expect-error -- a typo is not a RequirementId; tsc --noEmit proves this line stays an error
    const typo: RequirementId = 'CREATE-IDEMPOTENCY-REPLAYED';
    expect(() => requirement(typo)).toThrow(/unknown requirement ID: CREATE-IDEMPOTENCY-REPLAYED/);
  });
});

describe('quotes and statements', () => {
  it.each(catalogue)('$id quotes the spec verbatim, whitespace aside', (r) => {
    const missing = excerptsOf(r).filter((q) => !spec.includes(q));
    expect(missing, `not found in spec/tryon-api-spec.md: ${JSON.stringify(missing)}`).toEqual([]);
  });

  it.each(catalogue)('$id quotes text that lies inside one rule unit', (r) => {
    const stray = excerptsOf(r).filter((q) => !units.some((u) => u.text.includes(q)));
    expect(stray, `spans units or a heading: ${JSON.stringify(stray)}`).toEqual([]);
  });

  it.each(catalogue)('$id sits in the section and subsection its quote comes from', (r) => {
    const homes = units.filter((u) => u.text.includes(collapseWhitespace(r.quote)));
    expect(homes.map((u) => [u.section, u.subsection])).toContainEqual([r.section, r.subsection]);
  });

  it.each(catalogue)('$id states one normative line', (r) => {
    expect(r.statement).toMatch(/^\S.*\.$/);
    expect(r.statement).not.toMatch(/\n/);
  });

  it('gives no two requirements the same quote or the same statement', () => {
    const dupes = (values: string[]): string[] => values.filter((v, i) => values.indexOf(v) !== i);
    expect(dupes(catalogue.map((r) => collapseWhitespace(r.quote)))).toEqual([]);
    expect(dupes(catalogue.map((r) => r.statement))).toEqual([]);
  });
});

describe('coverage of the spec', () => {
  it('covers every rule unit with a requirement or an informational entry', () => {
    const uncovered = units.filter((u) => !coveredByRequirement(u) && informationalKey(u) === undefined);
    expect(uncovered.length, `rule units without a requirement:\n${uncovered.map(show).join('\n')}`).toBe(0);
  });

  it('covers every sentence of every unit, not only one sentence per unit', () => {
    const gaps = units.flatMap((u) => uncoveredSentences(u).map((s) => `line ${u.line} [${u.section}]: ${s}`));
    expect(gaps.length, `sentences without a requirement:\n${gaps.join('\n')}`).toBe(0);
  });

  it.each(Object.entries(informational))(
    'informational "%s" names a unit that carries no requirement',
    (key, reason) => {
      const matched = units.filter((u) => u.text.includes(key));
      expect(matched.length).toBeGreaterThan(0);
      expect(matched.filter(coveredByRequirement).map(show)).toEqual([]);
      expect(reason.trim().length).toBeGreaterThan(10);
    },
  );

  it('keeps the informational list short', () => {
    expect(Object.keys(informational).length).toBeLessThanOrEqual(units.length / 10);
  });
});

describe('observability', () => {
  const notObservable = catalogue.filter((r) => r.notObservable !== undefined);

  it.each(notObservable)('$id gives a reason why no HTTP exchange shows it, and needs nothing', (r) => {
    expect(r.notObservable?.trim().length).toBeGreaterThan(15);
    expect(r.needs).toEqual([]);
  });

  it.each<[RequirementId, Capability]>([
    ['AUTH-FOREIGN-IMAGE-ID-INVALID', 'second-account'],
    ['AUTH-FOREIGN-TRYON-NOT-FOUND', 'second-account'],
    ['LIMIT-RATES-PER-ACCOUNT', 'second-account'],
    ['AUTH-REVOKED-KEY-401', 'revoked-key'],
    ['ACCOUNT-FREE-CREDITS-ONCE', 'test-control'],
    ['AUTH-ONE-ACTIVE-KEY', 'test-control'],
    ['RES-IMAGE-ID-INVALID-AFTER-EXPIRY', 'test-control'],
    ['RES-RESULT-URL-VALID-24H', 'test-control'],
    ['LIMIT-STARTS-RAISED-ON-REQUEST', 'test-control'],
    ['CREATE-URL-REDIRECT-NOT-FOLLOWED', 'fixture-host'],
    ['CREATE-URL-12-SECOND-DEADLINE', 'fixture-host'],
    ['CREATE-URL-MUST-ANSWER-200', 'fixture-host'],
    ['CREATE-URL-FILE-AT-MOST-4MB', 'fixture-host'],
    ['ERR-PERSON-PHOTO-REJECTED', 'scenarios'],
    ['ERR-IMAGE-REJECTED', 'scenarios'],
    ['ERR-GARMENT-REJECTED', 'scenarios'],
    ['STATE-PENDING-TO-FAILED', 'scenarios'],
    ['ERR-START-FAILED', 'scenarios'],
    ['ERR-INTERNAL-ERROR', 'scenarios'],
    ['ERR-UNAVAILABLE', 'scenarios'],
    ['SYNC-202-STILL-PENDING', 'scenarios'],
  ])('%s needs %s', (id, capability) => {
    expect(requirement(id).needs).toContain(capability);
  });

  it.each<RequirementId>([
    'CREATE-URL-NO-PRIVATE-ADDRESS',
    'CREATE-URL-HTTPS-ONLY',
    'ERR-ENVELOPE-SHAPE',
    'CREATE-IDEMPOTENCY-REPLAY',
  ])('%s is observable with plain HTTP and one key', (id) => {
    expect(requirement(id).needs).toEqual([]);
    expect(requirement(id).notObservable).toBeUndefined();
  });
});

describe('points the spec leaves open', () => {
  const openPoints = catalogue.filter((r) => r.implementationDefined === true);

  it.each([
    ['GET /account shape', 'response body shape, errors and limits of this endpoint: not shown'],
    ['both or neither image source', 'both or neither source of an image'],
    ['title over 120 characters', 'for a `title` over 120 characters'],
    ['malformed JSON body', 'malformed JSON body'],
    ['idempotency key retention', 'how long keys are kept'],
    ['key reused with a different body', 'reused with a different body'],
    ['deprecation policy', 'Deprecation policy'],
    ['webhooks', 'Webhooks, callbacks or other pushed events'],
    ['transitions out of terminal states', 'Any transition out of `success` or `failed`'],
    ['account record fields', 'Account record fields'],
  ])('records "%s" as implementation-defined', (_point, fragment) => {
    expect(openPoints.filter((r) => r.quote.includes(fragment)).length).toBe(1);
  });

  it('records every "not shown" unit of the spec as an implementation-defined requirement', () => {
    const silent = units.filter((u) => /\b(not|none) shown\b/.test(u.text));
    const unrecorded = silent.filter((u) => !openPoints.some((r) => u.text.includes(collapseWhitespace(r.quote))));
    expect(silent.length).toBeGreaterThanOrEqual(6);
    expect(unrecorded.map(show)).toEqual([]);
  });

  it.each(openPoints)('$id says the spec leaves it open, at MAY level', (r) => {
    expect(r.statement).toMatch(/^The spec leaves open /);
    expect(r.level).toBe('MAY');
    expect(r.notObservable).toBeUndefined();
  });

  it.each<[RequirementId, RegExp]>([
    ['CREATE-IDEMPOTENCY-RETENTION-IMPL-DEFINED', /24 h/],
    ['CREATE-IDEMPOTENCY-DIFFERENT-BODY-IMPL-DEFINED', /\b422\b/],
    ['CREATE-IDEMPOTENCY-IN-FLIGHT-IMPL-DEFINED', /\b409\b.*Retry-After/],
    ['CREATE-IDEMPOTENCY-REPLAY', /original status and body/],
  ])('%s states the design-brief practice', (id, practice) => {
    expect(requirement(id).statement).toMatch(practice);
  });

  it.each(catalogue.filter((r) => r.xPoint !== undefined))(
    '$id points at an x-point that openapi.yaml defines',
    (r) => {
      expect(openapiText).toMatch(new RegExp(`x-point: ${r.xPoint ?? ''}\\s*$`, 'm'));
    },
  );
});

describe('the Errors table', () => {
  const rows = units
    .filter((u) => u.section === 'Errors' && u.kind === 'row')
    .map((u) =>
      u.text
        .split('|')
        .map((cell) => cell.trim())
        .filter((cell) => cell !== ''),
    )
    .map(([status = '', code = '']) => ({ status, code }));

  it('has the 18 codes of the spec', () => {
    expect(rows).toHaveLength(18);
  });

  it.each(rows)('$status $code has an Errors requirement that names status and code', ({ status, code }) => {
    const named = catalogue.filter((r) => r.section === 'Errors' && r.statement.includes(`${status} ${code}`));
    expect(named.map((r) => r.id)).toHaveLength(1);
  });
});

describe('counts', () => {
  const bySection = Object.fromEntries(specSections.map((s) => [s, 0])) as Record<SpecSection, number>;
  const byLevel: Record<Level, number> = { MUST: 0, SHOULD: 0, MAY: 0 };
  for (const r of catalogue) {
    bySection[r.section] += 1;
    byLevel[r.level] += 1;
  }

  it.each(specSections)('%s has at least one requirement', (section) => {
    expect(bySection[section]).toBeGreaterThan(0);
  });

  it('reports counts per section and level that add up to the catalogue', () => {
    console.info('requirements per section', bySection, 'per level', byLevel);
    const sum = (record: Record<string, number>): number => Object.values(record).reduce((a, b) => a + b, 0);
    expect(sum(bySection)).toBe(catalogue.length);
    expect(sum(byLevel)).toBe(catalogue.length);
    expect(catalogue.length).toBeGreaterThanOrEqual(130);
    expect(catalogue.length).toBeLessThanOrEqual(200);
  });
});

describe('parseSpecUnits', () => {
  const sample = [
    'Intro sentence one. Intro `two`.',
    '',
    '## Errors',
    '',
    '### Sub part',
    '',
    '| Status | Code |',
    '|---|---|',
    '| 400 | A_CODE |',
    '',
    '- A bullet',
    '  that continues.',
    '1. A numbered rule.',
    '',
    '```',
    '- not a bullet',
    '```',
    'First sentence here. Second',
    'sentence on the next line.',
  ].join('\n');

  it('splits bullets, table body rows, numbered rules and paragraph sentences, with their lines', () => {
    expect(parseSpecUnits(sample)).toEqual([
      { section: 'Preamble', kind: 'paragraph', text: 'Intro sentence one.', line: 1 },
      { section: 'Preamble', kind: 'paragraph', text: 'Intro `two`.', line: 1 },
      { section: 'Errors', subsection: 'Sub part', kind: 'row', text: '| 400 | A_CODE |', line: 9 },
      { section: 'Errors', subsection: 'Sub part', kind: 'bullet', text: 'A bullet that continues.', line: 11 },
      { section: 'Errors', subsection: 'Sub part', kind: 'rule', text: 'A numbered rule.', line: 13 },
      { section: 'Errors', subsection: 'Sub part', kind: 'paragraph', text: 'First sentence here.', line: 18 },
      {
        section: 'Errors',
        subsection: 'Sub part',
        kind: 'paragraph',
        text: 'Second sentence on the next line.',
        line: 18,
      },
    ]);
  });

  it('refuses a `##` section the catalogue does not know', () => {
    expect(() => parseSpecUnits('## Billing\n\n- a rule')).toThrow(/line 1: "## Billing"/);
  });

  it.each<[SpecSection, SpecUnit['kind'], number]>([
    ['Errors', 'row', 18],
    ['Limits', 'row', 15],
    ['Authentication', 'rule', 7],
    ['Versioning', 'bullet', 3],
    ['Resources and their fields', 'row', 11],
  ])('finds in %s the %s units of the spec (%i)', (section, kind, count) => {
    expect(units.filter((u) => u.section === section && u.kind === kind)).toHaveLength(count);
  });

  it('points every unit at the spec line it starts on', () => {
    const lines = markdown.split('\n').map(collapseWhitespace);
    const misplaced = units.filter((u) => !(lines[u.line - 1] ?? '').includes(u.text.slice(0, 24)));
    expect(misplaced.map(show)).toEqual([]);
  });
});
