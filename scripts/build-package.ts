/**
 * `npm run build` (and `npm pack`, through prepack): the package's dist/. tsc compiles src/ to
 * JavaScript with type declarations (tsconfig.build.json); then the files the compiled code reads
 * beside itself at run time are copied next to it, and the CLI is made executable.
 */
import { spawnSync } from 'node:child_process';
import { chmod, copyFile, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import { parseOpenApi, sha256Of, type ParsedCopy } from '../src/contract/openapi.ts';
import { writePrebuilt } from '../src/fixtures/prebuilt-catalogue.ts';

const root = fileURLToPath(new URL('../', import.meta.url));
const dist = join(root, 'dist');

/** Non-TypeScript files of src/ that the code loads at run time, by path relative to src/. */
export const runtimeAssets: readonly string[] = [
  // new URL('./decode-worker.mjs', import.meta.url) in decode-pool.ts
  'server/domain/images/decode-worker.mjs',
  // new URL('./report.schema.json', import.meta.url) in read-report.ts (`compare`)
  'report/report.schema.json',
];

async function build(): Promise<void> {
  await rm(dist, { recursive: true, force: true });
  const tsc = spawnSync(
    process.execPath,
    [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(root, 'tsconfig.build.json')],
    { stdio: 'inherit' },
  );
  if (tsc.status !== 0) throw new Error(`tsc exited with ${tsc.status ?? tsc.signal}`);
  for (const asset of runtimeAssets) {
    await mkdir(dirname(join(dist, asset)), { recursive: true });
    await copyFile(join(root, 'src', asset), join(dist, asset));
  }
  await writeParsedOpenApi();
  // The fixture images of fixed options, drawn once here: a runner-only install has no sharp.
  const imageBytes = await writePrebuilt(join(dist, 'fixtures', 'prebuilt'));
  await chmod(join(dist, 'cli', 'main.js'), 0o755);
  process.stdout.write(
    `build: dist/ (${runtimeAssets.length} assets copied, openapi.yaml parsed, ` +
      `fixture images kept: ${Math.round(imageBytes / 1024)} KiB)\n`,
  );
}

/**
 * openapi.yaml parsed once here, as JSON beside the compiled spec module (src/contract/openapi.ts reads
 * it when its SHA-256 matches the YAML text), after checking that JSON carries the document whole.
 */
async function writeParsedOpenApi(): Promise<void> {
  const text = await readFile(join(root, 'openapi.yaml'), 'utf8');
  const document = parseOpenApi(text);
  const json = JSON.stringify({ sha256: sha256Of(text), document } satisfies ParsedCopy);
  if (!isDeepStrictEqual((JSON.parse(json) as ParsedCopy).document, document))
    throw new Error('openapi.yaml does not survive JSON unchanged; no parsed copy');
  await writeFile(join(dist, 'contract', 'openapi.parsed.json'), json);
}

try {
  await build();
} catch (error) {
  process.stderr.write(`build: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
}
