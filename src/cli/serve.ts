/**
 * `tryon-conformance serve`: the reference server as a real mock (ARCHITECTURE.md, server/).
 * Flags are parsed once here, defaults filled, and a frozen ServerOptions passed down.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { join } from 'node:path';
import { gradeCallLog, type ClientGrade } from '../grade/grade.ts';
import { gradeFileNames, gradeFormats, writeGrade } from '../grade/write-grade.ts';
import { createReferenceServer } from '../server/app.ts';
import { withDefaults, type ServerOptions } from '../server/config.ts';
import { isLoopback } from '../server/domain/image-fetch/address-policy.ts';
import { describeDb, parseDbTarget } from '../server/store/open-store.ts';
import { parseFlags } from './parse-flags.ts';
import { ToolkitError } from '../shared/toolkit-errors.ts';

const help = `usage: tryon-conformance serve [flags]

Starts the reference Virtual Try-On server (fastify, SQLite or PostgreSQL, sharp) with the test-control extension.

  --host HOST              address to listen on (default 127.0.0.1)
  --port N                 port (default 8787; 0 picks a free one)
  --db FILE|URL            SQLite file (or sqlite:FILE, :memory:), kept across restarts, or a postgres:// URL
                           shared by many instances (default: $TRYON_DB_URL, else tryon-reference.db)
  --public-url URL         base of resultUrl when behind a proxy (default: the listening address)
  --control-token T        token for /_control (default: $TRYON_CONTROL_TOKEN, else a random one, printed)
  --no-control             disable the test-control extension
  --sync-wait-ms N         how long POST /tryons/sync holds a request (default 55000)
  --generation-latency-ms N  engine latency per try-on (default 1500)
  --slow-generation-ms N   latency of a slow-generation scenario image (default 70000)
  --trusted-origin URL     one HTTPS origin allowed to serve test images (e.g. https://127.0.0.1:8443)
  --trusted-ca FILE        PEM certificate that origin presents
  --outbound any|loopback  which addresses image fetches may connect to (default any; loopback = safety net)
  --grade-clients DIR      grade each account's client against the spec's client rules: GET /_control/client-grade
                           any time, and client-grade.{json,junit.xml,md,html} written to DIR on shutdown (on a
                           postgres:// database shared by instances, both grade every instance's traffic)
  --trust-proxy ADDRS      comma-separated addresses of trusted balancers: a connection from one counts, in the caps
                           per client address, for the client its X-Forwarded-For names (default: $TRYON_TRUST_PROXY)
  --instance NAME          this instance's name in GET /healthz and /readyz (default: pid-<pid>)
  --max-in-flight-per-account N  requests of one account in flight at once; more get 503 (default 256)
  --drain-ms N             on SIGTERM/SIGINT, answer /readyz 503 for N ms before closing, so a balancer
                           stops sending here first (default 0)
  --log                    log every request (pino JSON)
  -h, --help               this help`;

/** Parses `serve` flags into frozen options, or throws a USAGE/CONFIG ToolkitError. */
export function serveOptions(
  argv: readonly string[],
  env: NodeJS.ProcessEnv,
): { options: ServerOptions; host: string; port: number; drainMs: number; gradeDir?: string } | 'help' {
  const f = parseFlags('serve', argv, {
    host: { type: 'string', default: '127.0.0.1' },
    port: { type: 'string', default: '8787' },
    db: { type: 'string', default: env.TRYON_DB_URL || 'tryon-reference.db' },
    'public-url': { type: 'string' },
    'control-token': { type: 'string' },
    'no-control': { type: 'boolean', default: false },
    'sync-wait-ms': { type: 'string' },
    'generation-latency-ms': { type: 'string' },
    'slow-generation-ms': { type: 'string' },
    'trusted-origin': { type: 'string' },
    'trusted-ca': { type: 'string' },
    outbound: { type: 'string', default: 'any' },
    log: { type: 'boolean', default: false },
    'trust-proxy': { type: 'string', default: env.TRYON_TRUST_PROXY ?? '' },
    instance: { type: 'string' },
    'max-in-flight-per-account': { type: 'string' },
    'drain-ms': { type: 'string', default: '0' },
    'grade-clients': { type: 'string' },
    help: { type: 'boolean', short: 'h', default: false },
  });
  if (f.help) return 'help';
  const port = integer('--port', f.port, 0, 65535);
  parseDbTarget(f.db);
  if (f.outbound !== 'any' && f.outbound !== 'loopback')
    throw new ToolkitError('USAGE', 'serve: --outbound must be any or loopback');
  if (Boolean(f['trusted-origin']) !== Boolean(f['trusted-ca'])) {
    throw new ToolkitError('USAGE', 'serve: --trusted-origin and --trusted-ca go together');
  }
  if (f['public-url'] !== undefined && !/^https?:\/\/[^/]+$/.test(f['public-url'])) {
    throw new ToolkitError('USAGE', 'serve: --public-url must be an origin such as https://tryon.example.com');
  }
  const settings = withDefaults({
    trustedProxies: trustedProxies(f['trust-proxy']),
    ...(f['max-in-flight-per-account'] !== undefined && {
      maxInFlightPerAccount: integer('--max-in-flight-per-account', f['max-in-flight-per-account'], 1, 1_000_000),
    }),
    ...(f['sync-wait-ms'] !== undefined && { syncWaitMs: integer('--sync-wait-ms', f['sync-wait-ms'], 0, 600_000) }),
    ...(f['generation-latency-ms'] !== undefined && {
      generationLatencyMs: integer('--generation-latency-ms', f['generation-latency-ms'], 0, 600_000),
    }),
    ...(f['slow-generation-ms'] !== undefined && {
      slowGenerationMs: integer('--slow-generation-ms', f['slow-generation-ms'], 0, 600_000),
    }),
  });
  const controlToken = f['no-control']
    ? undefined
    : (f['control-token'] ?? env.TRYON_CONTROL_TOKEN ?? randomBytes(18).toString('base64url'));
  const options: ServerOptions = Object.freeze({
    dbPath: f.db,
    settings,
    ...(f['public-url'] !== undefined && { publicUrl: f['public-url'] }),
    ...(controlToken !== undefined && { controlToken }),
    ...(f.outbound === 'loopback' && { connectGuard: isLoopback }),
    ...(f['trusted-origin'] !== undefined &&
      f['trusted-ca'] !== undefined && {
        trustedOrigin: { origin: f['trusted-origin'], ca: readPem(f['trusted-ca']) },
      }),
    logger: f.log,
    ...(f.instance !== undefined && { instance: instanceName(f.instance) }),
    ...(f['grade-clients'] !== undefined && { gradeClients: true }),
  });
  if (f['grade-clients'] === '')
    throw new ToolkitError('USAGE', 'serve: --grade-clients needs a directory for the grade');
  const drainMs = integer('--drain-ms', f['drain-ms'], 0, 600_000);
  const gradeDir = f['grade-clients'];
  return { options, host: f.host, port, drainMs, ...(gradeDir !== undefined && { gradeDir }) };
}

/** Runs the server until SIGINT/SIGTERM. */
export async function serve(argv: readonly string[]): Promise<number> {
  const parsed = serveOptions(argv, process.env);
  if (parsed === 'help') {
    process.stdout.write(`${help}\n`);
    return 0;
  }
  const server = await createReferenceServer(parsed.options);
  let url: string;
  try {
    url = await server.listen(parsed.host, parsed.port);
  } catch (error) {
    await server.close();
    throw new ToolkitError(
      'CONFIG',
      `serve: cannot listen on ${parsed.host}:${parsed.port}: ${(error as Error).message}`,
    );
  }
  process.stdout.write(banner(url, parsed.options));
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  if (parsed.drainMs > 0) {
    server.app.markNotReady();
    await new Promise((resolve) => setTimeout(resolve, parsed.drainMs));
  }
  if (parsed.gradeDir !== undefined && server.callLog) {
    // On a shared database the file grades every instance's traffic, as GET /_control/client-grade does:
    // a client's requests are spread over the instances, and its rules are judged over all of them.
    const shared = server.context.sharedCallLog;
    const merged = shared ? await shared().catch(() => undefined) : undefined;
    const files = writeGradeFiles(parsed.gradeDir, gradeCallLog(merged ?? server.callLog, server.context.clock.now()));
    const scope = !shared
      ? ''
      : merged
        ? ' (every instance)'
        : ' (this instance only: the shared records could not be read)';
    process.stdout.write(`Client grade written${scope}: ${files.join(', ')}\n`);
  }
  await server.close();
  return 0;
}

/** Writes the client grade in every format into `dir`; returns the paths. */
export function writeGradeFiles(dir: string, grade: ClientGrade): string[] {
  mkdirSync(dir, { recursive: true });
  return gradeFormats.map((format) => {
    const path = join(dir, gradeFileNames[format]);
    writeFileSync(path, writeGrade(grade, format));
    return path;
  });
}

function banner(url: string, options: ServerOptions): string {
  const lines = [
    'Virtual Try-On reference server',
    `  API base URL   ${url}/api/v1`,
    `  Database       ${describeDb(options.dbPath)}`,
  ];
  if (options.controlToken) {
    lines.push(
      `  Test control   ${url}/_control  (token ${options.controlToken})`,
      '',
      'Get an API key (20 free credits):',
      `  curl -s -X POST -H 'Authorization: Bearer ${options.controlToken}' ${url}/_control/accounts`,
      'Then:',
      `  curl -s -H 'Authorization: Bearer <apiKey>' ${url}/api/v1/account`,
    );
  } else {
    lines.push('  Test control   off (--no-control): no API key can be created on this instance');
  }
  if (options.gradeClients) {
    lines.push(
      '',
      `Client grading on: each account's requests are graded against the spec's client rules${options.controlToken ? ` (GET ${url}/_control/client-grade?format=markdown)` : ''}; the grade is written on shutdown.`,
    );
  }
  return `${lines.join('\n')}\n\nCtrl-C stops it.\n`;
}

function integer(flag: string, raw: string, min: number, max: number): number {
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || n < min || n > max)
    throw new ToolkitError('USAGE', `serve: ${flag} must be a whole number from ${min} to ${max}`);
  return n;
}

/** The addresses of `--trust-proxy`: plain IP addresses, comma-separated. */
function trustedProxies(raw: string): readonly string[] {
  const addresses = raw
    .split(',')
    .map((a) => a.trim())
    .filter((a) => a !== '');
  const bad = addresses.find((a) => isIP(a) === 0);
  if (bad !== undefined)
    throw new ToolkitError('USAGE', 'serve: --trust-proxy takes IP addresses, comma-separated (e.g. 127.0.0.1)');
  return Object.freeze(addresses);
}

function instanceName(raw: string): string {
  if (!/^[A-Za-z0-9._-]{1,64}$/.test(raw))
    throw new ToolkitError('USAGE', 'serve: --instance must be 1 to 64 letters, digits, dots, dashes or underscores');
  return raw;
}

function readPem(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    throw new ToolkitError(
      'CONFIG',
      `serve: cannot read --trusted-ca ${path}: ${(error as NodeJS.ErrnoException).code ?? 'error'}`,
    );
  }
}
