/**
 * When an exchange owes the one code of its status (spec: Errors table): always where the table's meaning
 * is the status's own; for 403 only when the request's consent was not true; for 413 only for an uploaded
 * file over 4 MB; never for 402, whose case (no credits left) the exchange does not show.
 */
import { describe, expect, it } from 'vitest';
import type { Answered } from '../client/exchange.ts';
import { overFourMbBytes, soleCodeOwed } from './code-conditions.ts';

function exchange(status: number, request: { body?: string; fileBytes?: number } = {}): Answered {
  return {
    seq: 1,
    request: {
      method: 'POST',
      url: 'https://api.example.test/api/v1/tryons',
      headers: {},
      ...(request.body !== undefined && { body: request.body }),
      ...(request.fileBytes !== undefined && {
        multipart: { field: 'file', filename: 'p.jpg', contentType: 'image/jpeg', bytes: request.fileBytes },
      }),
    },
    response: {
      status,
      headers: {},
      text: '',
      json: undefined,
      bytes: Buffer.alloc(0),
      truncated: false,
      durationMs: 1,
    },
  };
}

describe('soleCodeOwed', () => {
  it.each([401, 404, 405, 429, 500, 502, 503])('%i: the status itself shows the case', (status) => {
    expect(soleCodeOwed(exchange(status))).toBe(true);
  });

  it.each<[string, string | undefined, boolean]>([
    ['consent false', '{"consent":false}', true],
    ['no consent field', '{"personImageUrl":"https://x/p.jpg"}', true],
    ['consent "true" as a string', '{"consent":"true"}', true],
    ['consent true', '{"consent":true}', false],
    ['no body', undefined, false],
    ['a body that is not JSON', 'consent=false', false],
    ['a JSON array', '[{"consent":false}]', false],
    ['JSON null', 'null', false],
    ['a JSON number', '5', false],
    ['a JSON string', '"consent"', false],
  ])('403 ("`consent` was not `true`"): %s', (_name, body, owed) => {
    expect(soleCodeOwed(exchange(403, body === undefined ? {} : { body }))).toBe(owed);
  });

  it('413 ("image larger than 4 MB"): only an uploaded file over 4 MiB', () => {
    expect(overFourMbBytes).toBe(4_194_304);
    expect(soleCodeOwed(exchange(413, { fileBytes: overFourMbBytes + 1 }))).toBe(true);
    expect(soleCodeOwed(exchange(413, { fileBytes: overFourMbBytes }))).toBe(false);
    expect(soleCodeOwed(exchange(413, { body: '{"personImageUrl":"https://x/big.jpg"}' }))).toBe(false);
  });

  it('402 ("no credits left"): not even with an upload over 4 MB', () => {
    expect(soleCodeOwed(exchange(402, { fileBytes: overFourMbBytes + 1 }))).toBe(false);
  });

  it('402 ("no credits left") and statuses with several codes: never from the exchange alone', () => {
    expect([402, 400, 422, 409].map((s) => soleCodeOwed(exchange(s, { body: '{"consent":false}' })))).toEqual([
      false,
      false,
      false,
      false,
    ]);
  });
});
