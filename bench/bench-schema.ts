/** Checks a bench.json value against bench/bench.schema.json (JSON Schema draft 2020-12, ajv). */
import { readFileSync } from 'node:fs';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

// ajv-formats ships CommonJS with `export default`; under NodeNext the callable sits on `.default`.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

export const benchSchemaFile = new URL('./bench.schema.json', import.meta.url);

let validator: ValidateFunction | undefined;

/** The schema violations of `value` as lines (`/prism/cells/3/target: must be equal to one of the allowed values`); empty when valid. */
export function benchProblems(value: unknown): string[] {
  if (validator === undefined) {
    const ajv = new Ajv2020({ allErrors: true, strict: true });
    addFormats(ajv);
    validator = ajv.compile(JSON.parse(readFileSync(benchSchemaFile, 'utf8')) as object);
  }
  return validator(value)
    ? []
    : (validator.errors ?? []).map((e: ErrorObject) => `${e.instancePath || '/'}: ${e.message ?? 'invalid'}`);
}
