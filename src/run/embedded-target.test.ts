import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedTarget, type EmbeddedTarget } from './embedded-target.ts';

let embedded: EmbeddedTarget;

beforeAll(async () => {
  embedded = await startEmbeddedTarget({ creditBudget: 10, seed: 1, profile: 'full' }, undefined, { instances: 2 });
}, 120_000);
afterAll(() => embedded?.close());

const control = async (i: number, method: string, path: string, json?: unknown): Promise<Record<string, unknown>> => {
  const instance = embedded.instances[i];
  if (!instance) throw new Error(`no instance ${i}`);
  const response = await fetch(`${instance.control.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${instance.control.token}`,
      ...(json !== undefined && { 'content-type': 'application/json' }),
    },
    ...(json !== undefined && { body: JSON.stringify(json) }),
  });
  expect(response.status, `${method} ${path}`).toBe(200);
  return (await response.json()) as Record<string, unknown>;
};

describe('startEmbeddedTarget with several instances', () => {
  it('gives each instance its own address and control token, the first being the run configuration', () => {
    const [first, second] = embedded.instances;
    expect(embedded.config).toMatchObject({
      baseUrl: first?.baseUrl,
      control: first?.control,
      fixtureBehaviours: true,
    });
    expect(second?.baseUrl).not.toBe(first?.baseUrl);
    expect(second?.control.token).not.toBe(first?.control.token);
  });

  it('keeps the instances apart: a clock moved on one does not move on the other, and an account of one is unknown to the other', async () => {
    const before = Date.parse(String((await control(1, 'GET', '/settings')).now));
    await control(0, 'POST', '/clock/advance', { seconds: 86_400 });
    const moved = Date.parse(String((await control(0, 'GET', '/settings')).now));
    const other = Date.parse(String((await control(1, 'GET', '/settings')).now));
    expect(moved - before).toBeGreaterThanOrEqual(86_400_000);
    expect(other - before).toBeLessThan(86_400_000);
    const account = await control(0, 'POST', '/accounts');
    const second = embedded.instances[1];
    const answer = await fetch(`${second?.baseUrl}/account`, {
      headers: { authorization: `Bearer ${String(account.apiKey)}` },
    });
    expect(answer.status).toBe(401);
  });

  it('stops every instance on close', async () => {
    const local = await startEmbeddedTarget({ creditBudget: 10, seed: 1, profile: 'full' }, undefined, {
      instances: 2,
    });
    await local.close();
    for (const instance of local.instances) await expect(fetch(`${instance.control.url}/settings`)).rejects.toThrow();
  }, 120_000);
});
