/**
 * Reads an expectations file (`run --expect FILE`, YAML or JSON): the requirements known to fail on
 * the target, each with a reason, an optional link and an optional expiry date. The file is read
 * bounded in size, checked against a schema and the requirement catalogue; anything off is one
 * USAGE line (exit 2), never a stack trace.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { Ajv2020, type ErrorObject } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { parse } from 'yaml';
import { requirementIds } from '../contract/requirements.ts';
import type { Expectation, Expectations } from '../report/expectation-types.ts';
import { ToolkitError } from '../shared/toolkit-errors.ts';

// ajv-formats ships CommonJS with `export default`; under NodeNext the callable sits on `.default`.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

/** The most bytes an expectations file may have: a thousand entries with long reasons fit. */
export const maxExpectFileBytes = 256 * 1024;

/** The file's shape, with bounds on every string and on the number of entries. */
export const expectFileSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['expectations'],
  properties: {
    expectations: {
      type: 'array',
      maxItems: 1000,
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['id', 'reason'],
        properties: {
          id: { type: 'string', minLength: 1, maxLength: 100 },
          reason: { type: 'string', minLength: 1, maxLength: 1000 },
          link: { type: 'string', maxLength: 2000, pattern: '^https?://', format: 'uri' },
          expires: { type: 'string', format: 'date' },
        },
      },
    },
  },
} as const;

const ajv = new Ajv2020({ allErrors: false, strict: true });
addFormats(ajv);
const validate = ajv.compile(expectFileSchema);

/** Reads, parses and checks `file`; `strict` makes a stale entry fail the run (`--strict-expect`). */
export function readExpectFile(file: string, strict: boolean): Expectations {
  const bad = (why: string): ToolkitError => new ToolkitError('USAGE', `run: --expect ${file}: ${why}`);
  const text = boundedText(file, bad);
  let value: unknown;
  try {
    // YAML 1.2 reads JSON too; aliases are capped so a small file cannot expand into a large one.
    value = parse(text, { maxAliasCount: 100, uniqueKeys: true });
  } catch (error) {
    throw bad(`not valid YAML or JSON: ${firstLine(error)}`);
  }
  if (!validate(value)) throw bad(schemaProblem(validate.errors?.[0]));
  const entries = (value as { expectations: Expectation[] }).expectations;
  const known = new Set<string>(requirementIds);
  const seen = new Set<string>();
  entries.forEach((e, i) => {
    if (!known.has(e.id)) throw bad(`expectations[${i}].id: no requirement '${e.id}' in the catalogue`);
    if (seen.has(e.id)) throw bad(`expectations[${i}].id: '${e.id}' is listed twice`);
    seen.add(e.id);
  });
  return Object.freeze({ file, strict, entries: entries.map(entryOf) });
}

/** The entry with only the fields it has. */
function entryOf(e: Expectation): Expectation {
  return {
    id: e.id,
    reason: e.reason,
    ...(e.link !== undefined && { link: e.link }),
    ...(e.expires !== undefined && { expires: e.expires }),
  };
}

/** The file as UTF-8 text, at most {@link maxExpectFileBytes} read: a larger one is refused. */
function boundedText(file: string, bad: (why: string) => ToolkitError): string {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch (error) {
    throw bad(`cannot be read (${(error as NodeJS.ErrnoException).code ?? firstLine(error)})`);
  }
  try {
    const buffer = Buffer.alloc(maxExpectFileBytes + 1);
    let length = 0;
    for (;;) {
      const n = readSync(fd, buffer, length, buffer.length - length, null);
      length += n;
      if (n === 0 || length === buffer.length) break;
    }
    if (length > maxExpectFileBytes) throw bad(`larger than ${maxExpectFileBytes / 1024} KiB`);
    return buffer.subarray(0, length).toString('utf8');
  } catch (error) {
    if (error instanceof ToolkitError) throw error;
    throw bad(`cannot be read (${(error as NodeJS.ErrnoException).code ?? firstLine(error)})`);
  } finally {
    closeSync(fd);
  }
}

/** ajv's first complaint as `expectations[2].link: must match format "uri"`. */
function schemaProblem(e: ErrorObject | undefined): string {
  if (e === undefined) return 'not an expectations file';
  const where = e.instancePath
    .split('/')
    .slice(1)
    .map((part) => (/^\d+$/.test(part) ? `[${part}]` : `.${part}`))
    .join('')
    .replace(/^\./, '');
  const extra = e.keyword === 'additionalProperties' ? ` ('${String(e.params.additionalProperty)}')` : '';
  const what = `${e.message ?? 'invalid'}${extra}`;
  const hint = where === '' ? ' (expected `expectations:`, a list of entries with id and reason)' : '';
  return `${where === '' ? 'the file' : where}: ${what}${hint}`;
}

function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';
}
