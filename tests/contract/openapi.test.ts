/** openapi.yaml is valid, its examples match its schemas, and its request rules say what the spec says. */
import { existsSync, readFileSync } from 'node:fs';
import { compileErrors, validate } from '@readme/openapi-parser';
import { describe, expect, it } from 'vitest';
import { deref, isObject, listOperations, openapi, type Json, type JsonObject } from '../../src/contract/openapi.ts';
import { paths } from '../../src/contract/paths.ts';
import { SchemaBook } from '../../src/contract/response-schemas.ts';

const book = new SchemaBook();

describe('openapi.yaml', () => {
  it('is accepted by an independent validator (@readme/openapi-parser)', async () => {
    const result = await validate(structuredClone(openapi) as never);
    expect(result.valid ? 'valid' : compileErrors(result)).toBe('valid');
  });

  it('describes the five operations of the spec, and the public result image', () => {
    expect(listOperations().map((o) => `${o.method.toUpperCase()} ${o.path} ${o.operationId}`)).toEqual([
      'POST /tryons createTryOn',
      'POST /tryons/sync createTryOnSync',
      'GET /tryons/{id} getTryOn',
      'POST /images uploadImage',
      'GET /account getAccount',
      'GET /i/{file} getResultImage',
    ]);
  });

  it('has a server https://{host}/api/v1 and a bearer scheme that gives the key format', () => {
    expect(openapi.servers).toContainEqual(expect.objectContaining({ url: 'https://{host}/api/v1' }));
    const scheme = deref(openapi, (openapi.components as JsonObject).securitySchemes) as JsonObject;
    expect(scheme.apiKey).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(JSON.stringify(scheme.apiKey)).toContain('_live_');
  });

  it('validates every example against the schema it illustrates', () => {
    const checked = exampleSites().map(({ where, pointer, value }) => ({
      where,
      problems: book.validate(pointer, value),
    }));
    expect(checked.length).toBeGreaterThan(30);
    expect(checked.filter((c) => c.problems.length > 0)).toEqual([]);
  });

  it('matches the copy of the spec in spec/ with ../shared when that exists', () => {
    const shared = new URL('../../../shared/tryon-api-spec.md', import.meta.url);
    if (!existsSync(shared)) {
      // Outside the workplace there is no ../shared; the copy is then the only spec.
      expect(readFileSync(paths.proseSpec, 'utf8')).toContain('# Virtual Try-On API Specification');
      return;
    }
    expect(readFileSync(paths.proseSpec, 'utf8')).toBe(readFileSync(shared, 'utf8'));
  });
});

describe('request rules', () => {
  const req = '/components/schemas/CreateTryOnRequest';
  const ok = (body: object) => book.validate(req, body).length === 0;
  const base = { consent: true } as const;

  it.each<[string, object, boolean]>([
    [
      'a person URL and a garment id',
      { ...base, personImageUrl: 'https://a.example/p.jpg', garmentImageId: 'img_g' },
      true,
    ],
    [
      'a person id and a garment URL',
      { ...base, personImageId: 'img_p', garmentImageUrl: 'https://a.example/g.png' },
      true,
    ],
    [
      'both person sources',
      { ...base, personImageUrl: 'https://a.example/p.jpg', personImageId: 'img_p', garmentImageId: 'img_g' },
      false,
    ],
    ['no person source', { ...base, garmentImageId: 'img_g' }, false],
    [
      'both garment sources',
      { ...base, personImageId: 'img_p', garmentImageId: 'img_g', garmentImageUrl: 'https://a.example/g.png' },
      false,
    ],
    ['no garment source', { ...base, personImageId: 'img_p' }, false],
    ['an http: URL', { ...base, personImageUrl: 'http://a.example/p.jpg', garmentImageId: 'img_g' }, false],
    ['consent "true" as a string', { consent: 'true', personImageId: 'img_p', garmentImageId: 'img_g' }, false],
    ['consent false', { consent: false, personImageId: 'img_p', garmentImageId: 'img_g' }, false],
    ['no consent', { personImageId: 'img_p', garmentImageId: 'img_g' }, false],
    [
      'a 120-code-point title of astral characters',
      { ...base, personImageId: 'img_p', garmentImageId: 'img_g', title: '👕'.repeat(120) },
      true,
    ],
    [
      'a 121-code-point title',
      { ...base, personImageId: 'img_p', garmentImageId: 'img_g', title: 'x'.repeat(121) },
      false,
    ],
  ])('%s → valid: %s', (_name, body, valid) => {
    expect(ok(body)).toBe(valid);
  });

  const keyParam = (openapi.components as { parameters: { IdempotencyKey: { schema: { pattern: string } } } })
    .parameters.IdempotencyKey;
  it.each<[string, boolean]>([
    ['a'.repeat(7), false],
    ['a'.repeat(8), true],
    ['A-z_0'.repeat(25) + 'abc', true],
    ['a'.repeat(129), false],
    ['order 8841', false],
    ['ключ-12345', false],
    ['abcdefgh\n', false],
  ])('Idempotency-Key %j → valid: %s', (key, valid) => {
    expect(new RegExp(keyParam.schema.pattern, 'u').test(key)).toBe(valid);
  });
});

describe('points the spec leaves open', () => {
  const nodes = implementationDefinedNodes(openapi);
  const points = nodes.map((n) => n['x-point']);

  it('are each resolved with what the reference server does and what a verdict accepts', () => {
    expect(nodes.length).toBeGreaterThan(0);
    for (const n of nodes) {
      expect(typeof n['x-point'] === 'string' && n['x-point'].length > 0).toBe(true);
      expect(
        typeof n['x-reference-server'] === 'string' && n['x-reference-server'].length > 20,
        String(n['x-point']),
      ).toBe(true);
      expect(typeof n['x-conformance'] === 'string' && n['x-conformance'].length > 20, String(n['x-point'])).toBe(true);
    }
    expect(new Set(points).size).toBe(points.length);
  });

  it.each([
    'account-shape',
    'both-or-neither-source',
    'title-length',
    'malformed-json',
    'wrong-content-type',
    'idempotency-retention',
    'idempotency-different-body',
    'idempotency-in-flight',
    'sync-pick-up',
    'terminal-transitions',
    'versioning-policy',
  ])('covers %s', (point) => {
    expect(points).toContain(point);
  });
});

function implementationDefinedNodes(node: Json, out: JsonObject[] = []): JsonObject[] {
  if (Array.isArray(node)) node.forEach((n) => implementationDefinedNodes(n, out));
  else if (isObject(node)) {
    if (node['x-implementation-defined'] === true) out.push(node);
    Object.values(node).forEach((n) => implementationDefinedNodes(n, out));
  }
  return out;
}

/** Every example of a JSON request or response body, with the pointer of the schema it illustrates. */
function exampleSites(): { where: string; pointer: string; value: unknown }[] {
  const sites: { where: string; pointer: string; value: unknown }[] = [];
  const visitContent = (where: string, pointer: string, content: Json | undefined) => {
    if (!isObject(content)) return;
    const media = content['application/json'];
    if (!isObject(media) || !isObject(media.examples)) return;
    for (const [name, ex] of Object.entries(media.examples)) {
      const example = deref(openapi, ex);
      if (isObject(example))
        sites.push({
          where: `${where} ${name}`,
          pointer: `${pointer}/content/application~1json/schema`,
          value: example.value,
        });
    }
  };
  const components = openapi.components as JsonObject;
  for (const [name, r] of Object.entries(components.responses as JsonObject)) {
    visitContent(`response ${name}`, `/components/responses/${name}`, (r as JsonObject).content);
  }
  for (const [name, r] of Object.entries(components.requestBodies as JsonObject)) {
    visitContent(`request ${name}`, `/components/requestBodies/${name}`, (r as JsonObject).content);
  }
  for (const op of listOperations()) {
    const esc = op.path.replaceAll('/', '~1');
    for (const [status, r] of Object.entries(op.node.responses as JsonObject)) {
      if (isObject(r) && typeof r.$ref !== 'string') {
        visitContent(`${op.operationId} ${status}`, `/paths/${esc}/${op.method}/responses/${status}`, r.content);
      }
    }
  }
  const routing = (openapi['x-routing-errors'] as JsonObject).responses as JsonObject;
  for (const [status, r] of Object.entries(routing)) {
    visitContent(`routing ${status}`, `/x-routing-errors/responses/${status}`, (r as JsonObject).content);
  }
  return sites;
}
