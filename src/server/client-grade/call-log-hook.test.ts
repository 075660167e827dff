/** The server's hook of the call log names each request's operation by openapi.yaml's routes, over HTTP. */
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CallLog } from '../../grade/call-log.ts';
import { installCallLog } from './call-log-hook.ts';

const log = new CallLog({ now: () => Date.now() });
const app = Fastify({ logger: false });
let origin = '';

beforeAll(async () => {
  installCallLog(app, log);
  app.all('/*', async (_request, reply) => reply.code(404).send({ error: 'nothing here', code: 'NOT_FOUND' }));
  origin = await app.listen({ host: '127.0.0.1', port: 0 });
});

afterAll(() => app.close());

describe('the call log', () => {
  it.each([
    ['POST', '/api/v1/tryons', 'createTryOn', undefined],
    ['POST', '/api/v1/tryons/sync', 'createTryOnSync', undefined],
    // The most literal template wins first: GET /tryons/sync is the sync path with a wrong method.
    ['GET', '/api/v1/tryons/sync', 'other', undefined],
    ['GET', '/api/v1/tryons/tr_abc?x=1', 'getTryOn', 'tr_abc'],
    ['DELETE', '/api/v1/tryons/tr_abc', 'other', undefined],
    ['GET', '/api/v1/tryons', 'other', undefined],
    ['POST', '/api/v1/images', 'uploadImage', undefined],
    ['GET', '/api/v1/account', 'getAccount', undefined],
    ['GET', '/api/v2/account', 'other', undefined],
    ['GET', '/i/result.png', 'getResultImage', undefined],
  ])('names %s %s as %s', async (method, path, operation, tryOnId) => {
    const before = log.records().length;
    await (await fetch(`${origin}${path}`, { method })).text();
    await expect.poll(() => log.records().length).toBe(before + 1);
    const record = log.records().at(-1);
    expect({ path: record?.path, operation: record?.operation, tryOnId: record?.tryOnId }).toEqual({
      path: path.split('?')[0],
      operation,
      tryOnId,
    });
  });
});
