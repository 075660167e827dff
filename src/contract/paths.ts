import { fileURLToPath } from 'node:url';

/** Absolute paths of the files the spec part of the toolkit reads and writes. */
const root = fileURLToPath(new URL('../..', import.meta.url));

export const paths = Object.freeze({
  root,
  openapi: `${root}openapi.yaml`,
  proseSpec: `${root}spec/tryon-api-spec.md`,
  generatedTypes: `${root}src/contract/api-types.gen.ts`,
});
