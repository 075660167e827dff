/**
 * `fixtures export DIR` writes the fixture images and manifest.json for a public HTTPS host, so a remote
 * target can be given image URLs (--fixture-base-url). `fixtures serve` serves them itself over HTTPS, with
 * the misbehaving routes the image-URL tests need (--fixture-behaviours), and writes its self-signed certificate.
 */
import { writeFile } from 'node:fs/promises';
import { isIP } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { exportFixtures, fixtureFiles } from '../fixtures/export.ts';
import type { FixtureHost } from '../fixtures/fixture-host.ts';
import { parseFlags } from './parse-flags.ts';
import { ToolkitError } from '../shared/toolkit-errors.ts';
import { assertInstalled, fixtureHostPackages } from '../shared/optional-packages.ts';

const help = `usage: tryon-conformance fixtures export DIR
       tryon-conformance fixtures serve [--port N] [--host ADDR] [--ca-file FILE]

export  Writes every fixture image (valid person and garment photos, one photo per tryon-scenario
        marker, the 4 MB boundary files, unsupported formats, a decompression bomb) and
        manifest.json into DIR. Host DIR over public HTTPS and pass its URL to
        \`run --fixture-base-url\`.

serve   Serves the same files over HTTPS (a fresh self-signed certificate) under /f/, with the
        behaviour routes /redirect?to=, /status/<n>, /slow?ms=, /drip?bytes=&interval=, /big?bytes=.
        Prints the base URL and writes the certificate to --ca-file, so the target can be told to
        trust it (e.g. \`serve --trusted-origin <origin> --trusted-ca <file>\`). Runs until Ctrl-C.
        Bounded against hostile clients: ms= and interval= at most 30000, drip bytes= 5 MiB, big
        bytes= 64 MiB (larger values are clamped, malformed ones get 400); every response closes
        after 60 s; one client address holds at most 32 connections at once.
  --port N        port to listen on (default 8443; 0 for any free port)
  --host ADDR     address to listen on (default 127.0.0.1); another than loopback needs --public
  --public        allow a non-loopback --host (the certificate then names it too)
  --ca-file FILE  where to write the certificate (default: a file in the system's temp folder)`;

export async function fixtures(argv: readonly string[]): Promise<number> {
  const [verb, ...rest] = argv;
  if (verb === undefined || verb === '-h' || verb === '--help') {
    process.stdout.write(`${help}\n`);
    return verb === undefined ? 2 : 0;
  }
  if (verb === 'export') return exportCommand(rest);
  if (verb === 'serve') return serveCommand(rest);
  throw new ToolkitError('USAGE', `fixtures: unknown verb '${verb}' (export or serve)`);
}

async function exportCommand(argv: readonly string[]): Promise<number> {
  const f = parseFlags(
    'fixtures',
    argv.filter((a) => a.startsWith('-')),
    { help: { type: 'boolean', short: 'h', default: false } },
  );
  const words = argv.filter((a) => !a.startsWith('-'));
  if (f.help) {
    process.stdout.write(`${help}\n`);
    return 0;
  }
  const [dir] = words;
  if (dir === undefined || words.length !== 1)
    throw new ToolkitError('USAGE', 'fixtures: usage: tryon-conformance fixtures export DIR');
  const written = await exportFixtures(resolve(dir));
  process.stdout.write(`wrote ${written.length} files to ${resolve(dir)}\n`);
  return 0;
}

async function serveCommand(argv: readonly string[]): Promise<number> {
  const f = parseFlags('fixtures serve', argv, {
    port: { type: 'string', default: '8443' },
    host: { type: 'string', default: '127.0.0.1' },
    public: { type: 'boolean', default: false },
    'ca-file': { type: 'string' },
    help: { type: 'boolean', short: 'h', default: false },
  });
  if (f.help) {
    process.stdout.write(`${help}\n`);
    return 0;
  }
  const port = Number(f.port);
  if (!/^\d+$/.test(f.port) || port > 65535)
    throw new ToolkitError('USAGE', 'fixtures serve: --port must be a whole number from 0 to 65535');
  // Before making the files (seconds of work): a public address is a choice the user makes explicitly.
  const loopback = (isIP(f.host) === 4 && f.host.startsWith('127.')) || f.host === '::1';
  if (!loopback && !f.public)
    throw new ToolkitError(
      'USAGE',
      `fixtures serve: --host ${f.host} is not a loopback address (add --public to allow it)`,
    );
  // The host's certificate maker is optional; `fixtures export` needs none of it.
  assertInstalled('fixtures serve', fixtureHostPackages);
  const { startFixtureHost } = await import('../fixtures/fixture-host.ts');
  const files = await fixtureFiles();
  let host: FixtureHost;
  try {
    host = await startFixtureHost({ host: f.host, port, files, public: f.public });
  } catch (error) {
    const why = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new ToolkitError('CONFIG', `fixtures serve: cannot listen on ${f.host}:${port}: ${why}`);
  }
  const caFile = resolve(f['ca-file'] ?? join(tmpdir(), `tryon-fixture-ca-${new URL(host.origin).port}.pem`));
  try {
    await writeFile(caFile, host.ca);
  } catch (error) {
    await host.close();
    throw new ToolkitError(
      'CONFIG',
      `fixtures serve: cannot write --ca-file ${caFile}: ${(error as NodeJS.ErrnoException).code ?? 'error'}`,
    );
  }
  const lines = [
    `Fixture host   ${host.origin}/f   (${Object.keys(files).length} files; run --fixture-base-url ${host.origin}/f --fixture-behaviours)`,
    `Behaviours     ${host.origin}/redirect?to=/f/person.jpg, /status/<n>, /slow?ms=<n>, /drip?bytes=<n>&interval=<ms>, /big?bytes=<n>`,
    `Certificate    ${caFile}   (the target must trust it, e.g. serve --trusted-origin ${host.origin} --trusted-ca ${caFile})`,
    'Ctrl-C stops it.',
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  await new Promise<void>((done) => {
    const stop = (): void => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      void host.close().then(done);
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
  return 0;
}
