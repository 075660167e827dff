/**
 * Ordinary large images still work end to end under the decode budget (issue 13 acceptance): a
 * 12-megapixel JPEG photo and a PNG of about 4 MB are uploaded, and a try-on from them reaches
 * success.
 */
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeGarmentImage, makePersonPhoto, randomBytes } from '../../src/fixtures/images.ts';
import { newKey, pollUntilFinal, startHarness, upload, type Harness } from './harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => h?.close());

/** A 4000 × 3000 JPEG person photo at camera quality (drawn, so it builds quickly). */
function twelveMegapixelPhoto(): Promise<Buffer> {
  return makePersonPhoto({ width: 4000, height: 3000 });
}

/** A PNG of random pixels whose size is just under 4 MiB (random pixels do not compress). */
async function fourMegabytePng(): Promise<Buffer> {
  const width = 1440;
  const height = 960;
  return sharp(randomBytes(4, width * height * 3), { raw: { width, height, channels: 3 } })
    .png()
    .toBuffer();
}

describe('ordinary large images', () => {
  it.each([
    ['a 12-megapixel JPEG photo', twelveMegapixelPhoto, 'photo.jpg', 'image/jpeg'],
    ['a PNG of about 4 MB', fourMegabytePng, 'photo.png', 'image/png'],
  ] as const)(
    '%s is uploaded and a try-on from it reaches success',
    async (_, make, filename, contentType) => {
      const bytes = await make();
      const metadata = await sharp(bytes).metadata();
      if (filename.endsWith('.jpg')) expect(metadata.width * metadata.height).toBe(12_000_000);
      else expect(bytes.length).toBeGreaterThan(3.9 * 1024 * 1024);
      expect(bytes.length).toBeLessThanOrEqual(4 * 1024 * 1024);
      const { apiKey } = await h.newAccount();
      const person = await upload(h, apiKey, bytes, filename, contentType);
      expect(person.status, JSON.stringify(person.json)).toBe(200);
      const garment = await upload(h, apiKey, await makeGarmentImage({ format: 'png' }), 'garment.png', 'image/png');
      expect(garment.status).toBe(200);
      const started = await h.call('POST', '/api/v1/tryons', {
        key: apiKey,
        headers: { 'idempotency-key': newKey() },
        json: { personImageId: person.json.id, garmentImageId: garment.json.id, consent: true },
      });
      expect(started.status, JSON.stringify(started.json)).toBe(200);
      const final = await pollUntilFinal(h, apiKey, started.json.id, 25_000);
      expect(final.json.status).toBe('success');
      expect(h.violations).toEqual([]);
    },
    60_000,
  );
});
