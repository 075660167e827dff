/**
 * The success bodies held to the spec's words, field by field (spec: Resources and their fields;
 * Endpoints): each problem names the requirement it breaks, what came and the spec's words.
 */
import { describe, expect, it } from 'vitest';
import { bodyProblems } from './spec-bodies.ts';

/** The requirement and title of each problem, in order. */
const named = (operationId: string, status: number, json: unknown, text = '') =>
  bodyProblems(operationId, status, json, text).map((p) => [p.requirement, p.title]);

const created = { id: 't_1', status: 'pending', pollUrl: '/api/v1/tryons/t_1' };

describe('bodyProblems: the create response and the sync 202', () => {
  it('accepts {id, status: "pending", pollUrl} and a pollUrl with the id percent-encoded', () => {
    expect(bodyProblems('createTryOn', 200, created, '')).toEqual([]);
    expect(bodyProblems('createTryOnSync', 202, created, '')).toEqual([]);
    const odd = { id: 't 1', status: 'pending', pollUrl: '/api/v1/tryons/t%201' };
    expect(bodyProblems('createTryOn', 200, odd, '')).toEqual([]);
    expect(bodyProblems('createTryOn', 200, { ...odd, pollUrl: '/api/v1/tryons/t 1' }, '')).toEqual([]);
  });

  it('tells a missing id with the spec words ("returned on creation"), and an empty one too', () => {
    // "id | string | Identifier of the try-on, returned on creation"
    expect(bodyProblems('createTryOn', 200, { status: 'pending' }, '')).toEqual([
      {
        requirement: 'RES-TRYON-ID-RETURNED-ON-CREATE',
        title: 'no try-on id',
        received: '(absent)',
        documented: '"id | string | Identifier of the try-on, returned on creation"',
      },
    ]);
    expect(named('createTryOn', 200, { ...created, id: '' })).toEqual([
      ['RES-TRYON-ID-RETURNED-ON-CREATE', 'no try-on id'],
      ['RES-POLL-URL-VALUE', 'pollUrl is not /api/v1/tryons/<id>'],
    ]);
  });

  it('holds the status to "pending", under the requirement of the answer it is in', () => {
    // "status | string | always `pending`"
    expect(bodyProblems('createTryOn', 200, { ...created, status: 'success' }, '')).toEqual([
      {
        requirement: 'CREATE-RESPONSE-STATUS-PENDING',
        title: 'status is not pending',
        received: '"success"',
        documented: '"status | string | always `pending`"',
      },
    ]);
    expect(named('createTryOnSync', 202, { ...created, status: 'success' })).toEqual([
      ['SYNC-202-STILL-PENDING', 'status is not pending'],
    ]);
  });

  it('holds pollUrl to /api/v1/tryons/<id>, and says which', () => {
    // "pollUrl … Path relative to {host}, equal to `/api/v1/tryons/<id>`."
    expect(bodyProblems('createTryOn', 200, { ...created, pollUrl: '/tryons/t_1' }, '')).toEqual([
      {
        requirement: 'RES-POLL-URL-VALUE',
        title: 'pollUrl is not /api/v1/tryons/<id>',
        received: '"/tryons/t_1"',
        documented: '"equal to `/api/v1/tryons/<id>`": /api/v1/tryons/t_1',
      },
    ]);
  });

  it('finds a resultUrl in the create response, even a null one', () => {
    // "resultUrl … Absent from the create response."
    expect(bodyProblems('createTryOn', 200, { ...created, resultUrl: null }, '')).toEqual([
      {
        requirement: 'RES-RESULT-URL-ABSENT-FROM-CREATE',
        title: 'resultUrl is present',
        received: 'null',
        documented: '"Absent from the create response."',
      },
    ]);
  });
});

describe('bodyProblems: a try-on read or finished', () => {
  const done = { id: 't_1', status: 'success', resultUrl: 'https://cdn.example/i/r.png', message: null };

  it('accepts a success with a URL under /i/, a pending and a failed with their fields', () => {
    expect(bodyProblems('getTryOn', 200, done, '')).toEqual([]);
    expect(bodyProblems('createTryOnSync', 200, done, '')).toEqual([]);
    expect(bodyProblems('getTryOn', 200, { id: 't_1', status: 'pending', resultUrl: null }, '')).toEqual([]);
    const failed = { id: 't_1', status: 'failed', resultUrl: null, message: 'no person found' };
    expect(bodyProblems('getTryOn', 200, failed, '')).toEqual([]);
  });

  it.each<[string, unknown]>([
    ['a path not beginning /i/', 'https://cdn.example/x/i/r.png'],
    ['not a URL', '/i/r.png'],
    ['not a string', 5],
    ['absent', undefined],
  ])('holds the resultUrl of a success to a URL under /i/: %s', (_name, resultUrl) => {
    // "On `success`: URL of the finished image … served from {host} under a path beginning `/i/`"
    expect(bodyProblems('getTryOn', 200, { ...done, resultUrl }, '')).toEqual([
      {
        requirement: 'RES-RESULT-URL-HOST-AND-PATH',
        title: 'resultUrl is not a URL under /i/',
        received: resultUrl === undefined ? '(absent)' : JSON.stringify(resultUrl),
        documented: 'a URL "served from {host} under a path beginning `/i/`"',
      },
    ]);
  });

  it('holds resultUrl to null in every other state; an absent one is not null', () => {
    // "`null` in every other state."
    expect(bodyProblems('getTryOn', 200, { id: 't_1', status: 'pending' }, '')).toEqual([
      {
        requirement: 'RES-RESULT-URL-NULL-UNLESS-SUCCESS',
        title: 'resultUrl is not null on pending',
        received: '(absent)',
        documented: '"`null` in every other state"',
      },
    ]);
  });

  it('wants a message on failed, not an empty one, and none on success', () => {
    // "message | string | On `failed`: a short explanation that may be shown to a user"
    const failed = { id: 't_1', status: 'failed', resultUrl: null };
    expect(bodyProblems('getTryOn', 200, failed, '')).toEqual([
      {
        requirement: 'RES-TRYON-MESSAGE-ON-FAILED',
        title: 'no message on failed',
        received: '(absent)',
        documented: '"message | string | On `failed`: a short explanation"',
      },
    ]);
    expect(named('getTryOn', 200, { ...failed, message: '' })).toEqual([
      ['RES-TRYON-MESSAGE-ON-FAILED', 'no message on failed'],
    ]);
    expect(named('getTryOn', 200, { id: 't_1', status: 'success', resultUrl: done.resultUrl })).toEqual([]);
  });

  it('finds a pollUrl outside the create response and the sync 202', () => {
    // "pollUrl … Only in the create response and in a `202` from the sync endpoint."
    expect(bodyProblems('getTryOn', 200, { ...done, pollUrl: '/api/v1/tryons/t_1' }, '')).toEqual([
      {
        requirement: 'RES-POLL-URL-ONLY-CREATE-AND-SYNC-202',
        title: 'pollUrl outside the create response and the sync 202',
        received: '"/api/v1/tryons/t_1"',
        documented: '"Only in the create response and in a `202` from the sync endpoint."',
      },
    ]);
  });

  it('holds the id under the requirement of the answer: the GET body, or the sync 200', () => {
    expect(bodyProblems('getTryOn', 200, { ...done, id: '' }, '')).toEqual([
      { requirement: 'GET-RESPONSE-200-BODY', title: 'no try-on id', received: '""', documented: '"id (string)"' },
    ]);
    expect(named('createTryOnSync', 200, { ...done, id: 7 })).toEqual([['SYNC-200-ON-SUCCESS', 'no try-on id']]);
  });

  it('holds the status to the states the spec gives there, and judges nothing else of a body without one', () => {
    // GET: "pending", "success" or "failed"; the sync 200 comes only on success or failure.
    expect(bodyProblems('getTryOn', 200, { id: 't_1', status: 'done', pollUrl: 'x' }, '')).toEqual([
      {
        requirement: 'RES-TRYON-STATUS-VALUES',
        title: 'status is not one the spec gives here',
        received: '"done"',
        documented: '"pending" or "success" or "failed"',
      },
    ]);
    expect(bodyProblems('createTryOnSync', 200, { id: 't_1', status: 'pending', resultUrl: null }, '')).toEqual([
      {
        requirement: 'SYNC-200-ON-SUCCESS',
        title: 'status is not one the spec gives here',
        received: '"pending"',
        documented: '"success" or "failed"',
      },
    ]);
    expect(named('getTryOn', 200, { id: 't_1', status: 3 })).toEqual([
      ['RES-TRYON-STATUS-VALUES', 'status is not one the spec gives here'],
    ]);
  });
});

describe('bodyProblems: the upload response', () => {
  it.each([
    '2026-11-27T10:00Z',
    '2026-11-27T10:00:00Z',
    '2026-11-27T10:00:00.123+02:00',
    '2026-11-27T10:00:00,5-0300',
    '20261127T100000Z',
    '20261127T100000.5Z',
    '20261127T100000,55+0100',
    '20261127T1000Z',
    '2026-11-27T10:00:00',
  ])('accepts an img_ id and the ISO 8601 time %s', (expiresAt) => {
    expect(bodyProblems('uploadImage', 200, { id: 'img_1', expiresAt }, '')).toEqual([]);
  });

  it.each(['2026-11-27', '2026-11-27 10:00:00Z', 'x2026-11-27T10:00:00Z', '2026-11-27T10:00:00Zx', 'tomorrow'])(
    'refuses %s as an ISO 8601 timestamp',
    (expiresAt) => {
      // "`expiresAt` (string, ISO 8601, 24 hours after upload)"
      expect(named('uploadImage', 200, { id: 'img_1', expiresAt })).toEqual([
        ['RES-IMAGE-EXPIRES-AT-24H', 'expiresAt is not an ISO 8601 timestamp'],
      ]);
    },
  );

  it('holds the id to a string beginning img_, and tells each field apart', () => {
    // "`id` (string, begins `img_`)"
    expect(bodyProblems('uploadImage', 200, { id: 'im_1', expiresAt: 5 }, '')).toEqual([
      {
        requirement: 'RES-IMAGE-ID-PREFIX',
        title: 'id does not begin img_',
        received: '"im_1"',
        documented: '"`id` (string, begins `img_`)"',
      },
      {
        requirement: 'RES-IMAGE-EXPIRES-AT-24H',
        title: 'expiresAt is not an ISO 8601 timestamp',
        received: '5',
        documented: '"`expiresAt` (string, ISO 8601, 24 hours after upload)"',
      },
    ]);
    expect(named('uploadImage', 200, { id: 1, expiresAt: '2026-11-27T10:00:00Z' })).toEqual([
      ['RES-IMAGE-ID-PREFIX', 'id does not begin img_'],
    ]);
  });
});

describe('bodyProblems: what it does not judge, and a body that is not an object', () => {
  it('judges no answer whose body the spec does not give, and no error answer', () => {
    expect(bodyProblems('getAccount', 200, 'anything', 'anything')).toEqual([]);
    expect(bodyProblems('createTryOn', 400, {}, '{}')).toEqual([]);
    expect(bodyProblems('createTryOnSync', 201, {}, '{}')).toEqual([]);
  });

  it.each<[string, unknown, string, string]>([
    ['null', null, 'null', '"null"'],
    ['an array', [], '[]', '"[]"'],
    ['a string', 'ok', '"ok"', '"\\"ok\\""'],
    ['no JSON at all', undefined, '', '"(empty or non-JSON body)"'],
  ])('tells %s under the requirement of the answer, with the text that came', (_name, json, text, received) => {
    expect(bodyProblems('uploadImage', 200, json, text)).toEqual([
      {
        requirement: 'UPLOAD-RESPONSE-200',
        title: 'the body is not a JSON object',
        received,
        documented: 'a JSON object with the fields the spec lists',
      },
    ]);
  });

  it.each<[string, number, string]>([
    ['createTryOn', 200, 'CREATE-ACCEPTED-IS-200'],
    ['createTryOnSync', 202, 'SYNC-202-STILL-PENDING'],
    ['createTryOnSync', 200, 'SYNC-200-ON-SUCCESS'],
    ['getTryOn', 200, 'GET-RESPONSE-200-BODY'],
  ])('tells a body of %s %i that is not an object under %s', (operationId, status, requirement) => {
    expect(named(operationId, status, null, 'null')).toEqual([[requirement, 'the body is not a JSON object']]);
  });

  it('cuts the text of a body that is not an object at 200 characters', () => {
    const [p] = bodyProblems('getTryOn', 200, undefined, 'x'.repeat(500));
    expect(p?.requirement).toBe('GET-RESPONSE-200-BODY');
    expect(p?.received).toBe(`"${'x'.repeat(199)}…`);
  });
});
