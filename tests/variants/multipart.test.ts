import { describe, expect, it } from 'vitest';
import { filePart } from './multipart.ts';

const request = (body: string, boundary = 'XyZ') => ({
  method: 'POST',
  path: '/api/v1/images',
  headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  body: Buffer.from(body, 'latin1'),
});

describe('filePart', () => {
  it.each([
    [
      'the only part',
      '--XyZ\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n\x89PNG..\r\n--XyZ--\r\n',
      '\x89PNG..',
    ],
    [
      'after another part',
      '--XyZ\r\nContent-Disposition: form-data; name="note"\r\n\r\nhi\r\n--XyZ\r\nContent-Disposition: form-data; name="file"\r\n\r\nAB\r\nCD\r\n--XyZ--\r\n',
      'AB\r\nCD',
    ],
  ])('finds the file in %s', (_, body, want) => {
    expect(filePart(request(body))?.toString('latin1')).toBe(want);
  });

  it.each([
    ['no file part', '--XyZ\r\nContent-Disposition: form-data; name="note"\r\n\r\nhi\r\n--XyZ--\r\n'],
    ['a cut body', '--XyZ\r\nContent-Disposition: form-data; name="file"\r\n\r\nAB'],
  ])('gives nothing for %s', (_, body) => {
    expect(filePart(request(body))).toBeUndefined();
  });

  it('gives nothing without a boundary', () => {
    expect(filePart({ ...request('x'), headers: { 'content-type': 'image/png' } })).toBeUndefined();
  });
});
