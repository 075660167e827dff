/**
 * `tryon-conformance fixtures export DIR`: writes the fixture images (and manifest.json) for a
 * public HTTPS host, so that a run against a remote target can use image URLs (--fixture-base-url).
 */
import { resolve } from 'node:path';
import { exportFixtures } from '../fixtures/export.ts';
import { parseFlags } from './parse-flags.ts';
import { ToolkitError } from './toolkit-errors.ts';

const help = `usage: tryon-conformance fixtures export DIR

Writes every fixture image (valid person and garment photos, one photo per tryon-scenario marker,
the 4 MB boundary files, unsupported formats, a decompression bomb) and manifest.json into DIR.
Host DIR over public HTTPS and pass its URL to \`run --fixture-base-url\`.`;

export async function fixtures(argv: readonly string[]): Promise<number> {
  const f = parseFlags('fixtures', argv.filter((a) => a.startsWith('-')), { help: { type: 'boolean', short: 'h', default: false } });
  const words = argv.filter((a) => !a.startsWith('-'));
  if (f.help) {
    process.stdout.write(`${help}\n`);
    return 0;
  }
  const [verb, dir] = words;
  if (verb !== 'export' || dir === undefined || words.length !== 2) throw new ToolkitError('USAGE', 'fixtures: usage: tryon-conformance fixtures export DIR');
  const written = await exportFixtures(resolve(dir));
  process.stdout.write(`wrote ${written.length} files to ${resolve(dir)}\n`);
  return 0;
}
