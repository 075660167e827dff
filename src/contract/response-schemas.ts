/**
 * Response schemas of openapi.yaml, compiled once with ajv (JSON Schema 2020-12, as OpenAPI 3.1
 * uses), and request-schema checks for the same document. The reference server's tests apply them
 * to every response it gives: they hold our own choices too (GET /account's `credits`, our
 * implementation-defined codes). The suite does not judge targets by them: its checks follow the
 * spec's words (src/checks/spec-answers.ts, spec-bodies.ts).
 */
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { deref, isObject, listOperations, openapi, type Json, type JsonObject } from './openapi.ts';

// ajv-formats ships CommonJS with `export default`; under NodeNext the callable sits on `.default`.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

const documentId = 'openapi.yaml';

/** A schema violation, as ajv reports it, flattened into one readable line. */
export interface SchemaProblem {
  readonly path: string;
  readonly message: string;
}

/** Compiles schemas that point into one OpenAPI document. */
export class SchemaBook {
  readonly #ajv: Ajv2020;
  readonly #cache = new Map<string, ValidateFunction>();

  constructor(readonly doc: JsonObject = openapi) {
    this.#ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false, validateFormats: true });
    addFormats(this.#ajv);
    this.#ajv.addSchema(doc as object, documentId);
  }

  /** Validates `value` against the schema at a JSON pointer of the document (`/components/schemas/TryOn`). */
  validate(pointer: string, value: unknown): SchemaProblem[] {
    let fn = this.#cache.get(pointer);
    if (!fn) {
      fn = this.#ajv.compile({ $ref: `${documentId}#${pointer}` });
      this.#cache.set(pointer, fn);
    }
    return fn(value) ? [] : flatten(fn.errors ?? []);
  }
}

function flatten(errors: readonly ErrorObject[]): SchemaProblem[] {
  return errors.map((e) => ({ path: e.instancePath || '/', message: `${e.message ?? 'invalid'}${paramsNote(e)}` }));
}

function paramsNote(e: ErrorObject): string {
  if (e.keyword === 'enum' || e.keyword === 'const') return ` (${JSON.stringify(e.params)})`;
  if (e.keyword === 'additionalProperties') return ` (${JSON.stringify(e.params)})`;
  return '';
}

/** Where the response schema of one operation, status and media type sits, if it is documented. */
export function responseSchemaPointer(
  operationId: string,
  status: number,
  mediaType = 'application/json',
  doc: JsonObject = openapi,
): string | undefined {
  const op = listOperations(doc).find((o) => o.operationId === operationId);
  if (!op) return undefined;
  const responses = isObject(op.node.responses) ? op.node.responses : {};
  const key = String(status) in responses ? String(status) : undefined;
  if (!key) return undefined;
  const raw = responses[key];
  // Point at the resolved response so that shared components/responses are compiled once.
  const base =
    isObject(raw) && typeof raw.$ref === 'string'
      ? raw.$ref.slice(1)
      : `/paths/${pointerSegment(op.path)}/${op.method}/responses/${key}`;
  const response = deref(doc, raw);
  const content = isObject(response) && isObject(response.content) ? response.content : undefined;
  if (!content || !isObject(content[mediaType] as Json)) return undefined;
  return `${base}/content/${pointerSegment(mediaType)}/schema`;
}

/** The documented statuses of an operation. */
export function documentedStatuses(operationId: string, doc: JsonObject = openapi): number[] {
  const op = listOperations(doc).find((o) => o.operationId === operationId);
  const responses = op && isObject(op.node.responses) ? op.node.responses : {};
  return Object.keys(responses).map(Number).filter(Number.isInteger);
}

function pointerSegment(segment: string): string {
  return segment.replaceAll('~', '~0').replaceAll('/', '~1');
}
