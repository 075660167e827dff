/**
 * Crash safety (server issue): after a kill -9 and a restart, every try-on that was pending reaches
 * success or failed (with its refund), and no credit is lost or double-counted.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, describe, expect, it } from 'vitest';
import { request } from 'undici';
import { makeGarmentImage, makePersonPhoto } from '../../src/fixtures/images.ts';
import { markImage } from '../../src/fixtures/scenario-marker.ts';

const dir = mkdtempSync(join(tmpdir(), 'tryon-crash-'));
const dbPath = join(dir, 'reference.db');
const children: ChildProcess[] = [];
afterAll(() => {
  for (const c of children) c.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

async function startChild(latencyMs: number): Promise<{ base: string; child: ChildProcess }> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', new URL('./crash-child.ts', import.meta.url).pathname, dbPath, String(latencyMs)],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  children.push(child);
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
  return { base: line.trim(), child };
}

async function call(
  base: string,
  method: string,
  path: string,
  key: string,
  body?: unknown,
  headers: Record<string, string> = {},
) {
  const res = await request(`${base}${path}`, {
    method: method as 'GET',
    headers: {
      authorization: `Bearer ${key}`,
      ...(body !== undefined && { 'content-type': 'application/json' }),
      ...headers,
    },
    body: body === undefined ? null : JSON.stringify(body),
  });
  return { status: res.statusCode, json: (await res.body.json()) as any };
}

async function uploadTo(base: string, key: string, bytes: Buffer): Promise<string> {
  const form = new FormData();
  form.append('file', new Blob([bytes], { type: 'image/jpeg' }), 'p.jpg');
  const res = await fetch(`${base}/api/v1/images`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}` },
    body: form,
  });
  return ((await res.json()) as { id: string }).id;
}

describe('crash safety', () => {
  it('finishes every pending try-on after kill -9 and a restart, with no credit lost or double-counted', async () => {
    // Generation takes 60 s in the first life, so every try-on is still pending at the kill.
    const first = await startChild(60_000);
    const account = await call(first.base, 'POST', '/_control/accounts', 'crash-test');
    const key: string = account.json.apiKey;
    await call(first.base, 'PUT', `/_control/accounts/${account.json.accountId}/limits`, 'crash-test', {
      startsPerMinute: 100,
    });
    const person = await uploadTo(first.base, key, await makePersonPhoto());
    const failing = await uploadTo(first.base, key, markImage(await makePersonPhoto(), 'generation-fails'));
    const garment = await uploadTo(first.base, key, await makeGarmentImage());
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) {
      const body = { personImageId: i < 4 ? person : failing, garmentImageId: garment, consent: true };
      const res = await call(first.base, 'POST', '/api/v1/tryons', key, body, { 'idempotency-key': `crash-test-${i}` });
      expect(res.status).toBe(200);
      ids.push(res.json.id);
    }
    expect((await call(first.base, 'GET', '/api/v1/account', key)).json.credits).toBe(14);

    first.child.kill('SIGKILL');
    await new Promise((r) => first.child.once('exit', r));

    const second = await startChild(0);
    const deadline = Date.now() + 20_000;
    let states: string[] = [];
    while (Date.now() < deadline) {
      states = await Promise.all(
        ids.map(async (id) => (await call(second.base, 'GET', `/api/v1/tryons/${id}`, key)).json.status),
      );
      if (states.every((s) => s !== 'pending')) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(states).toEqual(['success', 'success', 'success', 'success', 'failed', 'failed']);
    // 20 − 4 successes; the two failures were refunded exactly once.
    expect((await call(second.base, 'GET', '/api/v1/account', key)).json.credits).toBe(16);
    // Replays after the restart still find the same try-ons and charge nothing.
    const replay = await call(
      second.base,
      'POST',
      '/api/v1/tryons',
      key,
      { personImageId: person, garmentImageId: garment, consent: true },
      { 'idempotency-key': 'crash-test-0' },
    );
    expect(replay.json.id).toBe(ids[0]);
    expect((await call(second.base, 'GET', '/api/v1/account', key)).json.credits).toBe(16);
    second.child.kill('SIGTERM');
  }, 60_000);
});
