/** The plan-time sign of an example mock, against two small targets on loopback. */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { SuiteConfig } from '../suite/config.ts';
import { exampleMockSign } from './example-mock.ts';

let server: Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

/** A target that answers every GET with `status` and `body`, and the config of a run against it. */
async function target(status: number, body: unknown): Promise<SuiteConfig> {
  server = createServer((_req, res) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { baseUrl: `http://127.0.0.1:${port}/api/v1`, apiKey: 'k', creditBudget: 8, seed: 1, profile: 'full' };
}

describe('exampleMockSign', () => {
  it('says so when two ids nobody made are read as one and the same try-on', async () => {
    const config = await target(200, { id: 'ton_example', status: 'pending', resultUrl: null });
    expect(await exampleMockSign(config)).toBe(
      'two try-on ids nobody made were both answered 200 as try-on "ton_example"',
    );
  });

  it('says nothing of a target that does not find them, or without a key, or with test control', async () => {
    const config = await target(404, { error: 'No such try-on.', code: 'NOT_FOUND' });
    expect(await exampleMockSign(config)).toBeUndefined();
    const { apiKey: _, ...keyless } = config;
    expect(await exampleMockSign(keyless)).toBeUndefined();
    expect(await exampleMockSign({ ...config, control: { url: config.baseUrl, token: 't' } })).toBeUndefined();
  });

  it('says nothing when nothing answers', async () => {
    expect(
      await exampleMockSign({
        baseUrl: 'http://127.0.0.1:9/api/v1',
        apiKey: 'k',
        creditBudget: 8,
        seed: 1,
        profile: 'full',
      }),
    ).toBeUndefined();
  });
});
