/** `tryon-conformance fixtures serve`: an HTTPS fixture host with the behaviour routes, and its certificate in a file. */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { Agent, request } from 'undici';
import { describe, expect, it } from 'vitest';

const bin = new URL('../../bin/tryon-conformance.js', import.meta.url).pathname;

describe('tryon-conformance fixtures serve', () => {
  it('serves a fixture and the behaviour routes over HTTPS that its written certificate lets a client trust', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tryon-fixtures-serve-'));
    const caFile = join(dir, 'ca.pem');
    const child = spawn(process.execPath, [bin, 'fixtures', 'serve', '--port', '0', '--ca-file', caFile], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      const lines: string[] = [];
      await new Promise<void>((resolve, reject) => {
        createInterface({ input: child.stdout }).on('line', (line) => {
          lines.push(line);
          if (line.startsWith('Ctrl-C')) resolve();
        });
        child.once('exit', (code) => reject(new Error(`exited ${code}: ${lines.join('\n')}`)));
      });
      const text = lines.join('\n');
      const base = /Fixture host\s+(https:\/\/127\.0\.0\.1:\d+\/f)\s/.exec(text)?.[1];
      expect(base).toBeDefined();
      expect(text).toContain(`Certificate    ${caFile}`);
      const origin = new URL(base ?? '').origin;
      // Trust only the written certificate: no rejectUnauthorized: false.
      const dispatcher = new Agent({ connect: { ca: readFileSync(caFile, 'utf8') } });
      try {
        const person = await request(`${base}/person.jpg`, { dispatcher });
        const bytes = Buffer.from(await person.body.arrayBuffer());
        expect([person.statusCode, person.headers['content-type'], bytes[0], bytes[1]]).toEqual([
          200,
          'image/jpeg',
          0xff,
          0xd8,
        ]);
        const status = await request(`${origin}/status/404`, { dispatcher });
        await status.body.dump();
        expect(status.statusCode).toBe(404);
        const redirect = await request(`${origin}/redirect?to=/f/person.jpg`, { dispatcher });
        await redirect.body.dump();
        expect([redirect.statusCode, redirect.headers.location]).toEqual([302, '/f/person.jpg']);
      } finally {
        await dispatcher.close();
      }
    } finally {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('answers hostile requests without dying, and serves a fixture after each', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tryon-fixtures-serve-'));
    const caFile = join(dir, 'ca.pem');
    const child = spawn(process.execPath, [bin, 'fixtures', 'serve', '--port', '0', '--ca-file', caFile], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let exited: number | null | undefined;
    child.once('exit', (code) => void (exited = code));
    try {
      const banner = await new Promise<string>((resolve, reject) => {
        const lines: string[] = [];
        createInterface({ input: child.stdout }).on('line', (line) => {
          lines.push(line);
          if (line.startsWith('Ctrl-C')) resolve(lines.join('\n'));
        });
        child.once('exit', (code) => reject(new Error(`exited ${code}: ${lines.join('\n')}`)));
      });
      const origin = /Fixture host\s+(https:\/\/127\.0\.0\.1:\d+)\/f\s/.exec(banner)?.[1] ?? '';
      const dispatcher = new Agent({ connect: { ca: readFileSync(caFile, 'utf8') } });
      try {
        for (const path of [
          '/f/%',
          '/f/%E0%A4%A',
          '/f/%ZZ',
          '/drip?bytes=10000000000',
          '/redirect?to=%2Fa%0D%0Ab:c',
          '/slow?ms=1e',
        ]) {
          // A status under 500, or the connection closed cleanly; never the end of the process.
          const status = await request(`${origin}${path}`, { dispatcher }).then(
            (res) => (res.body.on('error', () => undefined).destroy(), res.statusCode),
            () => 'closed',
          );
          expect([path, typeof status === 'string' || status < 500]).toEqual([path, true]);
          const person = await request(`${origin}/f/person.jpg`, { dispatcher });
          await person.body.dump();
          expect([path, person.statusCode, exited]).toEqual([path, 200, undefined]);
        }
      } finally {
        await dispatcher.close();
      }
    } finally {
      const gone = new Promise((r) => (exited === undefined ? child.once('exit', r) : r(exited)));
      child.kill('SIGTERM');
      await gone;
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('exits 2 with one line for a non-loopback --host without --public', async () => {
    const child = spawn(process.execPath, [bin, 'fixtures', 'serve', '--port', '0', '--host', '10.0.0.1'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const status = await new Promise<number | null>((r) => child.once('exit', r));
    expect(status).toBe(2);
    expect(stderr).toMatch(
      /^tryon-conformance: fixtures serve: --host 10\.0\.0\.1 is not a loopback address \(add --public to allow it\)\n$/,
    );
  }, 60_000);
});
