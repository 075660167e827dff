/**
 * Writes the images the Arazzo flows upload (arazzo/images/): a person photo and a garment image,
 * and person photos carrying the scenario markers the flows need. Small, so they can be committed;
 * `npx tsx scripts/make-flow-images.ts` redraws them, and flow-images.test.ts checks what they carry.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { makeGarmentImage, makePersonPhoto } from '../src/fixtures/images.ts';
import type { ScenarioName } from '../src/fixtures/scenarios.ts';

/** The file each flow uploads, and the scenario marker it carries (none for plain images). */
export const flowImages: Readonly<Record<string, ScenarioName | 'garment' | 'person'>> = {
  'person.png': 'person',
  'garment.png': 'garment',
  'person-generation-fails.png': 'generation-fails',
  'person-slow-generation.png': 'slow-generation',
};

const dir = new URL('../arazzo/images/', import.meta.url);

async function main(): Promise<void> {
  mkdirSync(dir, { recursive: true });
  for (const [file, kind] of Object.entries(flowImages)) {
    const bytes =
      kind === 'garment'
        ? await makeGarmentImage({ width: 120, height: 120, format: 'png' })
        : await makePersonPhoto({
            width: 120,
            height: 160,
            format: 'png',
            ...(kind !== 'person' && { scenario: kind }),
          });
    writeFileSync(new URL(file, dir), bytes);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
