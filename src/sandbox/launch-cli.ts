/**
 * `npm run sandbox [-- --instances N --port P --host H]`: starts the hosted sandbox on this machine
 * (launch.ts), prints the balancer's URL and the control token once, and stops everything on Ctrl-C or
 * SIGTERM. Bad flags or a missing haproxy/PostgreSQL: one line and exit 2.
 */
import { parseArgs } from 'node:util';
import { type Sandbox, startSandbox } from './launch.ts';

const usage = `usage: npm run sandbox -- [--instances N] [--port P] [--host H] [-- serve flags…]

Starts a throwaway PostgreSQL cluster, N serve instances on it (default 3) and Debian's haproxy in front of
them, round-robin on one port (default 8080). The control token is $TRYON_CONTROL_TOKEN, else a random one.`;

/** Runs the sandbox until a signal; returns the exit code. */
export async function main(argv: readonly string[]): Promise<number> {
  let flags: { instances: number; port: number; host: string; serveArgs: string[] } | 'help';
  try {
    flags = parseFlags(argv);
  } catch (error) {
    process.stderr.write(`sandbox: ${(error as Error).message}\n${usage}\n`);
    return 2;
  }
  if (flags === 'help') {
    process.stdout.write(`${usage}\n`);
    return 0;
  }
  let sandbox: Sandbox;
  try {
    sandbox = await startSandbox({
      instances: flags.instances,
      port: flags.port,
      host: flags.host,
      serveArgs: flags.serveArgs,
      ...(process.env.TRYON_CONTROL_TOKEN && { controlToken: process.env.TRYON_CONTROL_TOKEN }),
      onOutput: (source, line) => process.stderr.write(`[${source}] ${line}\n`),
    });
  } catch (error) {
    process.stderr.write(`${(error as Error).message.split('\n')[0]}\n`);
    return 2;
  }
  process.stdout.write(banner(sandbox));
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  process.stdout.write('Stopping haproxy, the instances and the cluster…\n');
  await sandbox.stop();
  return 0;
}

function parseFlags(argv: readonly string[]) {
  const { values, positionals } = parseArgs({
    args: [...argv],
    options: {
      instances: { type: 'string', default: '3' },
      port: { type: 'string', default: '8080' },
      host: { type: 'string', default: '127.0.0.1' },
      help: { type: 'boolean', short: 'h', default: false },
    },
    allowPositionals: true,
  });
  if (values.help) return 'help' as const;
  const instances = whole('--instances', values.instances, 1, 32);
  const port = whole('--port', values.port, 0, 65_535);
  return { instances, port, host: values.host, serveArgs: positionals };
}

function whole(flag: string, raw: string, min: number, max: number): number {
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || n < min || n > max) throw new Error(`${flag} must be a whole number from ${min} to ${max}`);
  return n;
}

function banner(sandbox: Sandbox): string {
  return [
    'Virtual Try-On sandbox',
    `  Balancer (haproxy)  ${sandbox.url}   API ${sandbox.url}/api/v1`,
    `  Control token       ${sandbox.controlToken}`,
    `  Instances           ${sandbox.instances.map((i) => `${i.name} ${i.url}`).join(', ')}`,
    `  Database            ${sandbox.databaseUrl}`,
    '',
    'Get an API key (20 free credits):',
    `  curl -s -X POST -H 'Authorization: Bearer ${sandbox.controlToken}' ${sandbox.url}/_control/accounts`,
    '',
    'Ctrl-C stops everything.',
    '',
  ].join('\n');
}

process.exitCode = await main(process.argv.slice(2));
