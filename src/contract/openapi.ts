/**
 * Loads openapi.yaml once and answers the questions the rest of the toolkit asks of it:
 * which operations exist, and which error codes each documents with which status.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parse } from 'yaml';
import { keepFile, keptDirOf } from '../cache/kept-files.ts';
import { paths } from './paths.ts';

export type HttpMethod = 'get' | 'put' | 'post' | 'delete' | 'options' | 'head' | 'patch' | 'trace';
export const httpMethods: readonly HttpMethod[] = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** A JSON value as read from YAML; narrowed with the helpers below. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

export interface Operation {
  readonly operationId: string;
  readonly method: HttpMethod;
  readonly path: string;
  readonly node: JsonObject;
}

/** One documented error: the status it comes with, and whether the spec names it or we chose it. */
export interface DocumentedError {
  readonly status: number;
  readonly code: string;
  readonly implementationDefined: boolean;
}

export function isObject(value: Json | undefined): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Parses an OpenAPI document from YAML text. */
export function parseOpenApi(text: string): JsonObject {
  const doc = parse(text) as Json;
  if (!isObject(doc)) throw new Error('openapi.yaml is not a YAML mapping');
  return doc;
}

/** Where `npm run build` leaves openapi.yaml parsed, beside the compiled module (scripts/build-package.ts). */
export const parsedCopyFile = new URL('./openapi.parsed.json', import.meta.url);

/** The build's parsed copy: the SHA-256 of the YAML text it was parsed from, and the document. */
export interface ParsedCopy {
  readonly sha256: string;
  readonly document: JsonObject;
}

export const sha256Of = (text: string): string => createHash('sha256').update(text).digest('hex');

/**
 * Where a run from the sources keeps openapi.yaml parsed, since no build made a copy beside the
 * module: in the folder of kept files (cache/kept-files.ts), beside the suite's kept collection.
 */
export function keptCopyFileOf(env: Readonly<Record<string, string | undefined>> = process.env): URL | undefined {
  const dir = keptDirOf(paths.root, env);
  return dir === undefined ? undefined : pathToFileURL(join(dir, 'openapi.parsed.json'));
}

/**
 * openapi.yaml as a document: the build's parsed copy, else the copy an earlier process kept in `keptFile`,
 * when either was parsed from this very text; else the YAML parsed now and kept for the next process (a
 * JSON read spares each worker and server instance a YAML parse). A copy made from other text is never read.
 */
export function loadOpenApi(
  text: string,
  copyFile: URL = parsedCopyFile,
  keptFile: URL | undefined = keptCopyFileOf(),
): JsonObject {
  const sha256 = sha256Of(text);
  const copied = copyOf(copyFile, sha256) ?? (keptFile && copyOf(keptFile, sha256));
  if (copied) return copied;
  const document = parseOpenApi(text);
  if (keptFile) keepFile(fileURLToPath(keptFile), JSON.stringify({ sha256, document } satisfies ParsedCopy));
  return document;
}

/** The document of the parsed copy in `file` when it was parsed from the text of `sha256`. */
function copyOf(file: URL, sha256: string): JsonObject | undefined {
  let copy: Partial<ParsedCopy> | undefined;
  try {
    copy = JSON.parse(readFileSync(file, 'utf8')) as Partial<ParsedCopy>;
  } catch {
    return undefined;
  }
  return copy?.sha256 === sha256 && isObject(copy.document) ? copy.document : undefined;
}

/** openapi.yaml, read once. */
export const openapi: JsonObject = loadOpenApi(readFileSync(paths.openapi, 'utf8'));

/** Follows a local `$ref` (`#/a/b`) until it reaches a node that is not a reference. */
export function deref(doc: JsonObject, node: Json | undefined): Json | undefined {
  let current = node;
  for (let hops = 0; isObject(current) && typeof current.$ref === 'string'; hops++) {
    if (hops > 32) throw new Error(`$ref cycle at ${current.$ref}`);
    const ref: string = current.$ref;
    if (!ref.startsWith('#/')) throw new Error(`only local $refs are supported: ${ref}`);
    current = ref
      .slice(2)
      .split('/')
      .map((part) => part.replaceAll('~1', '/').replaceAll('~0', '~'))
      .reduce<Json | undefined>((at, key) => (isObject(at) ? at[key] : undefined), doc);
  }
  return current;
}

/** Every operation of the document, in file order. */
export function listOperations(doc: JsonObject = openapi): Operation[] {
  const pathItems = isObject(doc.paths) ? doc.paths : {};
  return Object.entries(pathItems).flatMap(([path, item]) =>
    httpMethods.flatMap((method) => {
      const node = isObject(item) ? item[method] : undefined;
      if (!isObject(node) || typeof node.operationId !== 'string') return [];
      return [{ operationId: node.operationId, method, path, node }];
    }),
  );
}

/** The error codes a response documents: the `enum` pinned on `code` inside its JSON schema. */
export function responseCodes(doc: JsonObject, response: Json | undefined): string[] {
  const resolved = deref(doc, response);
  if (!isObject(resolved) || !isObject(resolved.content)) return [];
  const media = resolved.content['application/json'];
  const schema = isObject(media) ? deref(doc, media.schema) : undefined;
  const parts = isObject(schema) && Array.isArray(schema.allOf) ? schema.allOf : [schema ?? null];
  return parts.flatMap((part) => {
    const props = isObject(part) && isObject(part.properties) ? part.properties : undefined;
    const code = props ? deref(doc, props.code) : undefined;
    return isObject(code) && Array.isArray(code.enum)
      ? code.enum.filter((c): c is string => typeof c === 'string')
      : [];
  });
}

/** Codes a response marks as implementation-defined (`x-implementation-defined-codes`). */
function implementationDefinedCodes(doc: JsonObject, response: Json | undefined): Set<string> {
  const resolved = deref(doc, response);
  const list = isObject(resolved) ? resolved['x-implementation-defined-codes'] : undefined;
  return new Set(Array.isArray(list) ? list.filter((c): c is string => typeof c === 'string') : []);
}

/** Every error code an operation documents, with its status. */
export function documentedErrors(operation: Operation, doc: JsonObject = openapi): DocumentedError[] {
  const responses = isObject(operation.node.responses) ? operation.node.responses : {};
  return errorsOf(doc, responses);
}

/** The 404/405 answers for unknown paths and methods, documented under `x-routing-errors`. */
export function routingErrors(doc: JsonObject = openapi): DocumentedError[] {
  const routing = doc['x-routing-errors'];
  return errorsOf(doc, isObject(routing) && isObject(routing.responses) ? routing.responses : {});
}

function errorsOf(doc: JsonObject, responses: JsonObject): DocumentedError[] {
  return Object.entries(responses)
    .filter(([status]) => /^[45]\d\d$/.test(status))
    .flatMap(([status, response]) => {
      const ours = implementationDefinedCodes(doc, response);
      return responseCodes(doc, response).map((code) => ({
        status: Number(status),
        code,
        implementationDefined: ours.has(code),
      }));
    });
}

/**
 * One point the spec leaves open, as openapi.yaml records it (`x-point` with its `x-reference-server`
 * and `x-conformance`).
 */
export interface ImplementationDefinedPoint {
  /** The `x-point` name, e.g. `idempotency-different-body`. */
  readonly point: string;
  /** A JSON pointer to the node that carries it. */
  readonly where: string;
  /** What the reference server does (`x-reference-server`): one example, not binding. */
  readonly referenceServer?: string;
  /** What a conformance verdict accepts from any target (`x-conformance`). */
  readonly conformance?: string;
}

/** Every `x-point` of the document, in file order (the first node wins if a name repeats). */
export function implementationDefinedPoints(doc: JsonObject = openapi): ImplementationDefinedPoint[] {
  const found = new Map<string, ImplementationDefinedPoint>();
  const walk = (node: Json | undefined, pointer: string): void => {
    if (Array.isArray(node)) node.forEach((item, i) => walk(item, `${pointer}/${i}`));
    if (!isObject(node)) return;
    const point = node['x-point'];
    if (typeof point === 'string' && point !== '' && !found.has(point)) {
      const text = (key: string): string | undefined =>
        typeof node[key] === 'string' ? (node[key] as string).trim() : undefined;
      const referenceServer = text('x-reference-server');
      const conformance = text('x-conformance');
      found.set(point, {
        point,
        where: pointer === '' ? '#' : `#${pointer}`,
        ...(referenceServer !== undefined && { referenceServer }),
        ...(conformance !== undefined && { conformance }),
      });
    }
    for (const [key, value] of Object.entries(node))
      walk(value, `${pointer}/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`);
  };
  walk(doc, '');
  return [...found.values()];
}
