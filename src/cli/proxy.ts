/**
 * `tryon-conformance proxy`: a reverse proxy in front of a Virtual Try-On server that judges the
 * live traffic, the server's side and the client's (src/proxy/). Flags are parsed once here; a bad
 * one is one line and exit 2.
 */
import { randomBytes } from 'node:crypto';
import { toolIdentity } from '../report/run-info.ts';
import { liveJudgement, writeFinalReports } from '../proxy/live-judgement.ts';
import type { ExchangeObserver } from '../proxy/observer.ts';
import { createProxy } from '../proxy/proxy-app.ts';
import { openRecorder, type Recorder } from '../proxy/recorder.ts';
import { ToolkitError } from '../shared/toolkit-errors.ts';
import type { RecordingFormat } from '../traffic/recording.ts';
import { parseFlags } from './parse-flags.ts';

const help = `usage: tryon-conformance proxy --upstream URL [flags]

Forwards every request to the upstream unaltered (bodies streamed, no header added) and judges the
traffic: the server's side against the spec's requirements, each client against the client rules.

  --upstream URL           the server to forward to (http or https origin; a path sets --base-path)
  --host HOST              address to listen on (default 127.0.0.1)
  --port N                 port (default 8788; 0 picks a free one)
  --token T                token for /_proxy/report (default: $TRYON_PROXY_TOKEN, else a random one, printed)
  --base-path P            the API's base path on the upstream (default /api/v1)
  --record FILE            append every exchange to FILE, redacted (read it with \`tryon-conformance judge FILE\`)
  --record-format F        ndjson (default) or har
  --report-dir DIR         write the report there on shutdown, as a run's (default reports/proxy)
  -h, --help               this help

Live: GET /_proxy/report and /_proxy/client-grade (?format=json|markdown|html|junit), with
Authorization: Bearer <token>. The proxy's own answers use the {error, code} envelope: UPSTREAM_FAILED
(502), UPSTREAM_TIMEOUT (504), PROXY_BUSY (503), INVALID_REQUEST (400), REQUEST_TIMEOUT (408),
METHOD_NOT_ALLOWED (405), UNAUTHORIZED (401), NOT_FOUND (404).`;

export interface ProxyCommandOptions {
  readonly upstream: string;
  readonly basePath: string;
  readonly host: string;
  readonly port: number;
  readonly token: string;
  readonly tokenGenerated: boolean;
  readonly record?: { readonly path: string; readonly format: RecordingFormat };
  readonly reportDir: string;
}

/** Parses `proxy` flags into options, or throws a USAGE ToolkitError. */
export function proxyOptions(argv: readonly string[], env: NodeJS.ProcessEnv): ProxyCommandOptions | 'help' {
  const f = parseFlags('proxy', argv, {
    upstream: { type: 'string' },
    host: { type: 'string', default: '127.0.0.1' },
    port: { type: 'string', default: '8788' },
    token: { type: 'string' },
    'base-path': { type: 'string' },
    record: { type: 'string' },
    'record-format': { type: 'string' },
    'report-dir': { type: 'string', default: 'reports/proxy' },
    help: { type: 'boolean', short: 'h', default: false },
  });
  if (f.help) return 'help';
  if (f.upstream === undefined) throw new ToolkitError('USAGE', 'proxy: --upstream URL is required');
  const upstream = upstreamOf(f.upstream);
  const port = Number(f.port);
  if (!/^\d+$/.test(f.port) || port > 65_535) throw new ToolkitError('USAGE', 'proxy: --port must be 0 to 65535');
  const basePath = f['base-path'] ?? (upstream.path === '' ? '/api/v1' : upstream.path);
  if (!/^\/[A-Za-z0-9._~/-]*$/.test(basePath)) throw new ToolkitError('USAGE', 'proxy: --base-path must be a path');
  const format = f['record-format'] ?? (f.record?.toLowerCase().endsWith('.har') ? 'har' : 'ndjson');
  if (format !== 'ndjson' && format !== 'har')
    throw new ToolkitError('USAGE', 'proxy: --record-format must be ndjson or har');
  if (f['record-format'] !== undefined && f.record === undefined)
    throw new ToolkitError('USAGE', 'proxy: --record-format goes with --record FILE');
  if (f.record === '' || f['report-dir'] === '') throw new ToolkitError('USAGE', 'proxy: a file or directory is empty');
  const given = f.token ?? env.TRYON_PROXY_TOKEN;
  if (given !== undefined && given.length < 8)
    throw new ToolkitError('USAGE', 'proxy: --token needs 8 characters or more');
  return {
    upstream: upstream.origin,
    basePath: basePath.replace(/\/+$/, '') || '/',
    host: f.host,
    port,
    token: given ?? randomBytes(18).toString('base64url'),
    tokenGenerated: given === undefined,
    ...(f.record !== undefined && { record: { path: f.record, format } }),
    reportDir: f['report-dir'],
  };
}

function upstreamOf(raw: string): { origin: string; path: string } {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ToolkitError('USAGE', 'proxy: --upstream must be a URL such as https://staging.example.com');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new ToolkitError('USAGE', 'proxy: --upstream must be an http or https URL');
  if (url.username !== '' || url.password !== '' || url.search !== '' || url.hash !== '')
    throw new ToolkitError('USAGE', 'proxy: --upstream takes an origin and a path only (no credentials or query)');
  return { origin: url.origin, path: url.pathname.replace(/\/+$/, '') };
}

/** Runs the proxy until SIGINT/SIGTERM, then writes the report (and closes the recording). */
export async function proxy(argv: readonly string[]): Promise<number> {
  const options = proxyOptions(argv, process.env);
  if (options === 'help') {
    process.stdout.write(`${help}\n`);
    return 0;
  }
  const warn = (line: string) => process.stderr.write(`${line}\n`);
  const live = liveJudgement({ upstream: options.upstream, basePath: options.basePath });
  let recorder: Recorder | undefined;
  if (options.record) {
    recorder = openRecorder({ ...options.record, version: toolIdentity().version, warn });
  }
  const observers: ExchangeObserver[] = [...live.observers, ...(recorder ? [recorder] : [])];
  const server = await createProxy({
    upstream: options.upstream,
    token: options.token,
    observers,
    reports: live.reports,
    warn,
  });
  let url: string;
  try {
    url = await server.listen(options.host, options.port);
  } catch (error) {
    await server.close();
    await recorder?.close();
    throw new ToolkitError(
      'CONFIG',
      `proxy: cannot listen on ${options.host}:${options.port}: ${(error as Error).message}`,
    );
  }
  process.stdout.write(banner(url, options));
  const signal = await new Promise<string>((resolve) => {
    process.once('SIGINT', () => resolve('SIGINT'));
    process.once('SIGTERM', () => resolve('SIGTERM'));
  });
  process.stdout.write(`${signal}: stopping\n`);
  await server.close();
  await recorder?.close();
  const dir = await writeFinalReports(live, options.reportDir);
  process.stdout.write(`Report written: ${dir}\n`);
  if (recorder) process.stdout.write(`Recorded ${recorder.written} exchanges to ${options.record?.path}\n`);
  return 0;
}

function banner(url: string, options: ProxyCommandOptions): string {
  const token = options.tokenGenerated
    ? `${options.token}  (generated; --token or $TRYON_PROXY_TOKEN sets it)`
    : '(as given)';
  const lines = [
    'Virtual Try-On conformance proxy',
    `  Listening      ${url}  →  ${options.upstream}`,
    `  API base URL   ${url}${options.basePath}`,
    `  Report         ${url}/_proxy/report?format=markdown  (Authorization: Bearer <token>)`,
    `  Token          ${token}`,
    `  On shutdown    the report is written under ${options.reportDir}`,
  ];
  if (options.record) lines.push(`  Recording      ${options.record.path} (${options.record.format})`);
  return `${lines.join('\n')}\n\nCtrl-C stops it.\n`;
}
