/**
 * Server tests talk HTTP to a real reference server on an ephemeral loopback port. Its outbound
 * connector refuses every non-loopback address (the safety net), names resolve through a static
 * resolver, and a loopback HTTPS fixture host is its one trusted fixture origin. Every response is
 * checked against openapi.yaml; `violations` collects what does not match.
 */
import { request as undiciRequest } from 'undici';
import { makeGarmentImage, makePersonPhoto } from '../../src/fixtures/images.ts';
import { startFixtureHost, type FixtureHost } from '../../src/fixtures/fixture-host.ts';
import { scenarioNames, type ScenarioName } from '../../src/fixtures/scenarios.ts';
import { markImage } from '../../src/fixtures/scenario-marker.ts';
import { createReferenceServer, type ReferenceServer } from '../../src/server/app.ts';
import { withDefaults, type ServerSettings } from '../../src/server/config.ts';
import { isLoopback } from '../../src/server/domain/image-fetch/address-policy.ts';
import { staticResolver } from '../../src/server/domain/image-fetch/resolver.ts';
import { operationOf } from '../../src/contract/operation-of.ts';
import { SchemaBook, documentedStatuses, responseSchemaPointer } from '../../src/contract/response-schemas.ts';

export const controlToken = 'test-control-token';

export interface Exchange {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: Buffer;
  readonly json: any;
}

export interface Harness {
  readonly base: string;
  readonly server: ReferenceServer;
  readonly fixtures: FixtureHost;
  /** Schema problems seen so far, one line each; tests assert it stays empty. */
  readonly violations: string[];
  /** Outbound connections the safety net refused. */
  readonly refusedOutbound: string[];
  call(method: string, path: string, init?: CallInit): Promise<Exchange>;
  control(method: string, path: string, body?: unknown): Promise<Exchange>;
  newAccount(): Promise<{ accountId: string; apiKey: string }>;
  close(): Promise<void>;
}

export interface CallInit {
  readonly key?: string;
  readonly json?: unknown;
  readonly rawBody?: string | Buffer;
  readonly headers?: Record<string, string>;
  readonly signal?: AbortSignal;
}

const book = new SchemaBook();

/** Checks one exchange against openapi.yaml; returns problems as lines. */
export function checkAgainstSpec(method: string, path: string, ex: Exchange): string[] {
  const where = `${method} ${path} → ${ex.status}`;
  const operation = operationOf(method, `http://target${path}`);
  const contentType = String(ex.headers['content-type'] ?? '');
  if (!operation) {
    if (path.startsWith('/_control')) return [];
    // Unknown path or method: x-routing-errors.
    const pointer =
      ex.status === 404 || ex.status === 405
        ? `/x-routing-errors/responses/${ex.status}/content/application~1json/schema`
        : undefined;
    if (!pointer) return [`${where}: not a documented routing status`];
    return book.validate(pointer, ex.json).map((p) => `${where}: ${p.path} ${p.message}`);
  }
  const { operationId } = operation;
  if (!documentedStatuses(operationId).includes(ex.status))
    return [`${where}: status not documented for ${operationId}`];
  const mediaType = contentType.split(';')[0]?.trim() ?? '';
  const pointer = responseSchemaPointer(operationId, ex.status, mediaType);
  if (!pointer) return [`${where}: media type ${mediaType} not documented`];
  if (mediaType !== 'application/json') return [];
  const problems = book.validate(pointer, ex.json).map((p) => `${where}: ${p.path} ${p.message}`);
  if (ex.status === 429 && !/^\d+$/.test(String(ex.headers['retry-after'] ?? '')))
    problems.push(`${where}: no integer Retry-After`);
  return problems;
}

export interface HarnessOptions {
  readonly settings?: Partial<ServerSettings>;
  readonly dbPath?: string;
  readonly control?: boolean;
  /** Grades the callers against the spec's client rules (src/grade, fed by src/server/client-grade). */
  readonly gradeClients?: boolean;
  /** The instance's name in /healthz and /readyz. */
  readonly instance?: string;
}

/** Starts a fixture host and a reference server wired to it. */
export async function startHarness(options: HarnessOptions = {}): Promise<Harness> {
  const person = await makePersonPhoto();
  const marked = scenarioNames.map(
    (name) => [`person-${name}.jpg`, { body: markImage(person, name), contentType: 'image/jpeg' }] as const,
  );
  const fixtures = await startFixtureHost({
    files: {
      'person.jpg': { body: person, contentType: 'image/jpeg' },
      'garment.png': { body: await makeGarmentImage({ format: 'png' }), contentType: 'image/png' },
      ...Object.fromEntries(marked),
    },
  });
  const refusedOutbound: string[] = [];
  const server = await createReferenceServer({
    dbPath: options.dbPath ?? ':memory:',
    settings: withDefaults({
      syncWaitMs: 3_000,
      generationLatencyMs: 50,
      slowGenerationMs: 6_000,
      fetchTimeoutMs: 1_500,
      ...options.settings,
    }),
    ...(options.control !== false && { controlToken }),
    ...(options.gradeClients === true && { gradeClients: true }),
    ...(options.instance !== undefined && { instance: options.instance }),
    resolver: staticResolver({ 'fixtures.test': ['127.0.0.1'] }),
    connectGuard: (ip) => {
      const ok = isLoopback(ip);
      if (!ok) refusedOutbound.push(ip);
      return ok;
    },
    trustedOrigin: { origin: fixtures.origin, ca: fixtures.ca },
  });
  const base = await server.listen('127.0.0.1', 0);
  const violations: string[] = [];

  const call = async (method: string, path: string, init: CallInit = {}): Promise<Exchange> => {
    const headers: Record<string, string> = { ...init.headers };
    if (init.key !== undefined) headers.authorization = `Bearer ${init.key}`;
    let body: string | Buffer | undefined = init.rawBody;
    if (init.json !== undefined) {
      body = JSON.stringify(init.json);
      headers['content-type'] ??= 'application/json';
    }
    const res = await undiciRequest(`${base}${path}`, {
      method: method as 'GET',
      headers,
      body: body ?? null,
      ...(init.signal && { signal: init.signal }),
    });
    const buf = Buffer.from(await res.body.arrayBuffer());
    const isJson = String(res.headers['content-type'] ?? '').startsWith('application/json');
    const ex: Exchange = {
      status: res.statusCode,
      headers: res.headers,
      body: buf,
      json: isJson && buf.length ? JSON.parse(buf.toString()) : undefined,
    };
    violations.push(...checkAgainstSpec(method, path.split('?')[0] ?? path, ex));
    return ex;
  };

  const control = (method: string, path: string, body?: unknown) =>
    call(method, `/_control${path}`, { key: controlToken, ...(body !== undefined && { json: body }) });

  return {
    base,
    server,
    fixtures,
    violations,
    refusedOutbound,
    call,
    control,
    async newAccount() {
      const res = await control('POST', '/accounts');
      if (res.status !== 200) throw new Error(`control: create account gave ${res.status}`);
      return res.json as { accountId: string; apiKey: string };
    },
    async close() {
      await server.close();
      await fixtures.close();
    },
  };
}

/** A create body whose images come from the fixture host; `scenario` marks the person photo. */
export function urlBody(h: Harness, scenario?: ScenarioName, extra: Record<string, unknown> = {}) {
  const personPath = scenario ? `/f/person-${scenario}.jpg` : '/f/person.jpg';
  return {
    personImageUrl: h.fixtures.url(personPath),
    garmentImageUrl: h.fixtures.url('/f/garment.png'),
    consent: true,
    ...extra,
  };
}

/** Uploads an image and returns its id. */
export async function upload(
  h: Harness,
  key: string,
  bytes: Buffer,
  filename = 'photo.jpg',
  contentType = 'image/jpeg',
): Promise<Exchange> {
  const form = new FormData();
  form.append('file', new Blob([bytes], { type: contentType }), filename);
  const res = await fetch(`${h.base}/api/v1/images`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}` },
    body: form,
  });
  const buf = Buffer.from(await res.arrayBuffer());
  const headers = Object.fromEntries(res.headers.entries());
  const ex: Exchange = {
    status: res.status,
    headers,
    body: buf,
    json: buf.length ? JSON.parse(buf.toString()) : undefined,
  };
  h.violations.push(...checkAgainstSpec('POST', '/api/v1/images', ex));
  return ex;
}

let keyCounter = 0;
/** A fresh valid Idempotency-Key. */
export const newKey = (): string => `test-key-${Date.now()}-${++keyCounter}`;

/** Polls GET /tryons/{id} until the try-on leaves `pending` (bounded). */
export async function pollUntilFinal(h: Harness, key: string, id: string, timeoutMs = 15_000): Promise<Exchange> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await h.call('GET', `/api/v1/tryons/${id}`, { key });
    if (res.status !== 200 || res.json.status !== 'pending' || Date.now() > deadline) return res;
    await new Promise((r) => setTimeout(r, 50));
  }
}
