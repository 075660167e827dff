/**
 * A curl and a TypeScript sample per operation, generated from one source: openapi.yaml (method,
 * server, path, parameters and the request body's first example) and the typed client's method
 * names. Both samples of an operation show the same example values, so they cannot drift apart, and
 * samples.test.ts type-checks every TypeScript sample against src/sdk.
 */
import type { TryOnClient } from '../../sdk/client.ts';
import { deref, isObject, type Json, type JsonObject, listOperations, type Operation } from '../../contract/openapi.ts';

export interface OperationSamples {
  readonly operationId: string;
  readonly method: string;
  readonly path: string;
  readonly summary: string;
  readonly curl: string;
  readonly typescript: string;
}

/** The client method that performs each operation; `satisfies` makes a renamed method a compile error. */
export const clientMethods = {
  createTryOn: 'startTryOn',
  createTryOnSync: 'tryOn',
  getTryOn: 'getTryOn',
  uploadImage: 'uploadImage',
  getAccount: 'getAccount',
  // The result image is public: the client reads the try-on, and any HTTP client fetches resultUrl.
  getResultImage: 'getTryOn',
} as const satisfies Record<string, keyof TryOnClient>;

/** The file the upload samples send. */
const uploadFile = 'person.jpg';

/** Samples for every operation of `doc`, in file order. Throws for an operation the client does not cover. */
export function operationSamples(doc: JsonObject): OperationSamples[] {
  return listOperations(doc).map((op) => {
    if (!(op.operationId in clientMethods)) throw new Error(`no client method is named for ${op.operationId}`);
    const summary = typeof op.node.summary === 'string' ? op.node.summary : op.operationId;
    return {
      operationId: op.operationId,
      method: op.method.toUpperCase(),
      path: op.path,
      summary,
      curl: curlSample(doc, op),
      typescript: typescriptSample(doc, op),
    };
  });
}

/** The example values a sample uses, all read from openapi.yaml. */
interface Example {
  readonly url: string;
  readonly keyed: boolean;
  readonly headers: ReadonlyArray<readonly [string, string]>;
  readonly pathValues: Readonly<Record<string, string>>;
  readonly json: Json | undefined;
  readonly multipart: boolean;
}

function exampleOf(doc: JsonObject, op: Operation): Example {
  const pathItem = isObject(doc.paths) ? doc.paths[op.path] : undefined;
  const params = [
    ...(isObject(pathItem) && Array.isArray(pathItem.parameters) ? pathItem.parameters : []),
    ...(Array.isArray(op.node.parameters) ? op.node.parameters : []),
  ]
    .map((p) => deref(doc, p))
    .filter(isObject);
  const pathValues: Record<string, string> = {};
  const headers: Array<readonly [string, string]> = [];
  for (const p of params) {
    const value = p.example === undefined ? `<${String(p.name)}>` : String(p.example);
    if (p.in === 'path') pathValues[String(p.name)] = value;
    if (p.in === 'header' && p.required === true) headers.push([String(p.name), value]);
  }
  const path = op.path.replace(/\{([^}]+)\}/g, (_, name: string) => pathValues[name] ?? `<${name}>`);
  const body = deref(doc, op.node.requestBody);
  const content = isObject(body) && isObject(body.content) ? body.content : {};
  return {
    url: `${serverOf(doc, op)}${path}`,
    keyed: !(Array.isArray(op.node.security) && op.node.security.length === 0),
    headers,
    pathValues,
    json: content['application/json'] === undefined ? undefined : firstExample(doc, content['application/json']),
    multipart: content['multipart/form-data'] !== undefined,
  };
}

/** The first server of the operation (or of the document), its variables at their defaults. */
function serverOf(doc: JsonObject, op?: Operation): string {
  const pathItem = op && isObject(doc.paths) ? doc.paths[op.path] : undefined;
  const servers = [
    ...(isObject(pathItem) && Array.isArray(pathItem.servers) ? pathItem.servers : []),
    ...(Array.isArray(doc.servers) ? doc.servers : []),
  ];
  const server = servers.find(isObject);
  if (!server || typeof server.url !== 'string') return '';
  const variables = isObject(server.variables) ? server.variables : {};
  return server.url.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const v = variables[name];
    return isObject(v) && typeof v.default === 'string' ? v.default : `<${name}>`;
  });
}

function firstExample(doc: JsonObject, media: Json): Json | undefined {
  if (!isObject(media)) return undefined;
  if (media.example !== undefined) return media.example;
  const first = isObject(media.examples) ? Object.values(media.examples)[0] : undefined;
  const example = deref(doc, first);
  return isObject(example) ? example.value : undefined;
}

function curlSample(doc: JsonObject, op: Operation): string {
  const ex = exampleOf(doc, op);
  const lines = [`curl -sS -X ${op.method.toUpperCase()} '${ex.url}'`];
  if (ex.keyed) lines.push(`  -H "Authorization: Bearer $TRYON_API_KEY"`);
  for (const [name, value] of ex.headers) lines.push(`  -H '${name}: ${value}'`);
  if (ex.json !== undefined) {
    lines.push(`  -H 'Content-Type: application/json'`);
    lines.push(`  --data '${JSON.stringify(ex.json).replaceAll("'", "'\\''")}'`);
  }
  if (ex.multipart) lines.push(`  -F 'file=@${uploadFile};type=image/jpeg'`);
  return lines.join(' \\\n');
}

function typescriptSample(doc: JsonObject, op: Operation): string {
  const ex = exampleOf(doc, op);
  const base = serverOf(doc);
  const setup = [
    `import { TryOnClient } from 'tryon-conformance/client';`,
    ...(ex.multipart ? [`import { readFile } from 'node:fs/promises';`] : []),
    '',
    `const client = new TryOnClient({ baseUrl: '${base}', apiKey: process.env.TRYON_API_KEY ?? '' });`,
  ];
  const getTryOn = listOperations(doc).find((o) => o.operationId === 'getTryOn');
  const tryOnId = getTryOn ? (exampleOf(doc, getTryOn).pathValues.id ?? '<id>') : '<id>';
  return [...setup, ...callLines(op, ex, tryOnId)].join('\n');
}

function callLines(op: Operation, ex: Example, tryOnId: string): string[] {
  const method = clientMethods[op.operationId as keyof typeof clientMethods];
  const key = ex.headers.find(([name]) => name.toLowerCase() === 'idempotency-key')?.[1];
  const options = key === undefined ? '' : `, { idempotencyKey: '${key}' }`;
  const body = JSON.stringify(ex.json ?? {}, null, 2);
  switch (op.operationId) {
    case 'createTryOn':
      return [
        `const started = await client.${method}(${body}${options});`,
        'console.log(started.id, started.pollUrl);',
      ];
    case 'createTryOnSync':
      return [
        `const finished = await client.${method}(${body}${options});`,
        `console.log(finished.status === 'success' ? finished.resultUrl : finished.message);`,
      ];
    case 'uploadImage':
      return [
        `const bytes = await readFile('${uploadFile}');`,
        `const image = await client.${method}({ bytes, contentType: 'image/jpeg' });`,
        'console.log(image.id, image.expiresAt);',
      ];
    case 'getAccount':
      return [`const account = await client.${method}();`, 'console.log(account.credits);'];
    case 'getResultImage':
      return [
        `const tryOn = await client.${method}('${tryOnId}');`,
        `if (tryOn.status === 'success') {`,
        '  const image = await fetch(tryOn.resultUrl); // public: no key',
        `  console.log(image.headers.get('content-type'));`,
        '}',
      ];
    default:
      return [
        `const tryOn = await client.${method}('${Object.values(ex.pathValues)[0] ?? ''}');`,
        'console.log(tryOn.status);',
      ];
  }
}
