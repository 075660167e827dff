/**
 * `npm run gen:types` writes src/contract/api-types.gen.ts from openapi.yaml with openapi-typescript;
 * `npm run check:types` (`--check`) exits 1 when the committed file is stale.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';
import { paths } from './paths.ts';

const header = `/**
 * GENERATED FILE: do not edit.
 * Generated from openapi.yaml by openapi-typescript. Regenerate with \`npm run gen:types\`;
 * \`npm run check:types\` (part of \`npm test\`) fails when this file is stale.
 */

`;

/** Renders the TypeScript types for openapi.yaml, header included. */
export async function renderTypes(): Promise<string> {
  const ast = await openapiTS(pathToFileURL(paths.openapi), { silent: true });
  return header + astToString(ast);
}

async function main(argv: readonly string[]): Promise<number> {
  const check = argv.includes('--check');
  const unknown = argv.filter((a) => a !== '--check');
  if (unknown.length > 0) {
    process.stderr.write(`gen-types: unknown argument ${unknown[0]}; usage: gen-types [--check]\n`);
    return 2;
  }
  const fresh = await renderTypes();
  if (!check) {
    await writeFile(paths.generatedTypes, fresh);
    process.stdout.write(`wrote ${paths.generatedTypes}\n`);
    return 0;
  }
  const committed = await readFile(paths.generatedTypes, 'utf8').catch(() => '');
  if (committed === fresh) {
    process.stdout.write('generated types are up to date\n');
    return 0;
  }
  process.stderr.write('src/contract/api-types.gen.ts is stale: run `npm run gen:types` and commit the result\n');
  return 1;
}

process.exitCode = await main(process.argv.slice(2));
