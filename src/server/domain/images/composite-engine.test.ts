/**
 * The default engine (spec, "What the service does" and "States and transitions"): a labelled
 * JPEG or PNG, the same bytes for the same inputs, and `failed` for scenario `generation-fails`.
 */
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { makeGarmentImage, makePersonPhoto, randomBytes } from '../../../fixtures/images.ts';
import { aiDigitalSourceType, readAiLabel } from './ai-label.ts';
import {
  createCompositeEngine,
  generationErrorMessage,
  maxResultSide,
  safetyFailureMessage,
} from './composite-engine.ts';
import type { EngineResult } from './engine.ts';
import { sniffFormat } from './image-format.ts';

const garment = await makeGarmentImage();

function image(result: EngineResult): Buffer {
  if (!result.ok) throw new Error(`generation failed: ${result.message}`);
  return result.image;
}

describe('createCompositeEngine', () => {
  const engine = createCompositeEngine();

  it.each(['jpeg', 'png'] as const)(
    'turns a %s person photo into a labelled image of the same format and size',
    async (format) => {
      const result = await engine.generate({
        person: await makePersonPhoto({ format }),
        garment,
        title: 'Red T-shirt',
      });
      expect(result).toMatchObject({ ok: true, format });
      const bytes = image(result);
      expect(sniffFormat(bytes)).toBe(format);
      expect(readAiLabel(bytes)).toBe(aiDigitalSourceType);
      const metadata = await sharp(bytes).metadata();
      expect([metadata.width, metadata.height]).toEqual([768, 1024]);
    },
  );

  it('gives the same bytes for the same inputs', async () => {
    const person = await makePersonPhoto();
    const first = image(await engine.generate({ person, garment }));
    expect(image(await engine.generate({ person, garment })).equals(first)).toBe(true);
  });

  it('gives, with cachedResults, the bytes the engine without a cache gives, for each pair of inputs', async () => {
    const cached = createCompositeEngine({ cachedResults: 2 });
    const people = [
      await makePersonPhoto(),
      await makePersonPhoto({ format: 'png' }),
      await makePersonPhoto({ width: 300, height: 400 }),
    ];
    for (const round of [1, 2]) {
      for (const person of people) {
        const want = image(await engine.generate({ person, garment }));
        expect(image(await cached.generate({ person, garment, title: `round ${round}` })).equals(want)).toBe(true);
      }
    }
    expect(await cached.generate({ person: people[0] ?? garment, garment, scenario: 'generation-fails' })).toEqual({
      ok: false,
      message: safetyFailureMessage,
    });
    expect(await cached.generate({ person: randomBytes(1, 500), garment })).toEqual({
      ok: false,
      message: generationErrorMessage,
    });
  });

  it('changes the person photo where the garment goes', async () => {
    const person = await makePersonPhoto();
    const result = image(await engine.generate({ person, garment }));
    const [before, after] = await Promise.all([person, result].map((bytes) => sharp(bytes).raw().toBuffer()));
    expect(before?.equals(after ?? Buffer.alloc(0))).toBe(false);
  });

  it(`caps the long side at ${maxResultSide} px`, async () => {
    const result = await engine.generate({ person: await makePersonPhoto({ width: 3000, height: 1500 }), garment });
    const metadata = await sharp(image(result)).metadata();
    expect([metadata.width, metadata.height]).toEqual([maxResultSide, maxResultSide / 2]);
  });

  it('fails with the safety message for scenario generation-fails', async () => {
    const result = await engine.generate({ person: await makePersonPhoto(), garment, scenario: 'generation-fails' });
    expect(result).toEqual({ ok: false, message: safetyFailureMessage });
  });

  it('fails, without throwing, for images it cannot decode', async () => {
    const result = await engine.generate({ person: randomBytes(1, 500), garment });
    expect(result).toEqual({ ok: false, message: generationErrorMessage });
  });

  it.each([
    ['a success', undefined],
    ['a failure', 'generation-fails'],
  ] as const)('waits out its latency with the injected sleep before %s', async (_, scenario) => {
    const events: string[] = [];
    const slow = createCompositeEngine({
      latencyMs: 1500,
      sleep: async (ms) => {
        events.push(`sleep ${ms}`);
      },
    });
    const person = await makePersonPhoto({ width: 120, height: 160 });
    const result = await slow.generate(scenario === undefined ? { person, garment } : { person, garment, scenario });
    events.push(result.ok ? 'success' : 'failure');
    expect(events).toEqual(['sleep 1500', scenario === undefined ? 'success' : 'failure']);
  });
});
