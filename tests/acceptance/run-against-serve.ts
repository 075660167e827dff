/**
 * Acceptance run of issue 17 ("A run against a real target, as the provider's QA makes it"), made
 * as a new user makes it: `tryon-conformance serve` in one process, a key from its test control,
 * then `tryon-conformance run --base-url …/api/v1` with that key, the default budget and no test
 * control, in another. It must end with exit 0, 0 failed and 0 inconclusive, the happy-path
 * requirements passing, and the credits the run says it spent equal to what GET /account says.
 *
 * `npx tsx tests/acceptance/run-against-serve.ts [--seed N] [--seed M …] [--keep]`
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { request } from 'undici';

const { values } = parseArgs({
  options: { seed: { type: 'string', multiple: true, default: ['1', '2'] }, keep: { type: 'boolean', default: false } },
});
const root = new URL('../../', import.meta.url).pathname;
const cli = [join(root, 'node_modules/.bin/tsx'), join(root, 'src/cli/main.ts')];
const happyPath = [
  'RES-RESULT-URL-ON-SUCCESS',
  'RES-RESULT-URL-HOST-AND-PATH',
  'AUTH-RESULT-URL-PUBLIC',
  'SVC-RESULT-AI-LABEL',
  'SYNC-200-ON-SUCCESS',
];

interface Outcome {
  readonly seed: string;
  readonly exit: number | null;
  readonly seconds: number;
  readonly failed: number;
  readonly inconclusive: number;
  readonly happy: Record<string, string>;
  readonly spentByAccount: number;
  readonly spentByRun: string;
  readonly headline: string;
}

/** The run is made without test control, whatever this shell has set. */
function withoutControl(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const { TRYON_CONTROL_TOKEN: _token, TRYON_CONTROL_URL: _url, ...rest } = env;
  return rest;
}

async function runOnce(seed: string): Promise<Outcome> {
  const dir = mkdtempSync(join(tmpdir(), 'tryon-serve-run-'));
  const serve = spawn(
    cli[0]!,
    [
      cli[1]!,
      'serve',
      '--port',
      '0',
      '--host',
      '127.0.0.1',
      '--db',
      join(dir, 'db.sqlite'),
      '--control-token',
      'acceptance-token',
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  try {
    const origin = await new Promise<string>((resolve, reject) => {
      let out = '';
      serve.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const m = /API base URL\s+(http:\/\/\S+)\/api\/v1/.exec(out);
        if (m?.[1]) resolve(m[1]);
      });
      serve.once('exit', (code) => reject(new Error(`serve exited ${code}: ${out}`)));
    });
    const made = (await (
      await request(`${origin}/_control/accounts`, {
        method: 'POST',
        headers: { authorization: 'Bearer acceptance-token' },
      })
    ).body.json()) as { apiKey: string };
    const balance = async () =>
      (
        (await (
          await request(`${origin}/api/v1/account`, { headers: { authorization: `Bearer ${made.apiKey}` } })
        ).body.json()) as { credits: number }
      ).credits;
    const before = await balance();
    const started = performance.now();
    const reports = join(dir, 'reports');
    const run = spawn(
      cli[0]!,
      [cli[1]!, 'run', '--base-url', `${origin}/api/v1`, '--seed', seed, '--report-dir', reports],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
        env: withoutControl({ ...process.env, TRYON_API_KEY: made.apiKey, CI: '1' }),
      },
    );
    let out = '';
    run.stdout.on('data', (chunk: Buffer) => void (out += chunk.toString()));
    const exit = await new Promise<number | null>((resolve) => run.once('exit', resolve));
    const seconds = Math.round((performance.now() - started) / 1000);
    const after = await balance();
    const report = JSON.parse(readFileSync(join(reports, 'latest', 'report.json'), 'utf8')) as {
      summary: { requirements: Record<string, number> };
      requirements: Array<{ id: string; verdict: string }>;
    };
    const verdictOf = new Map(report.requirements.map((r) => [r.id, r.verdict]));
    return {
      seed,
      exit,
      seconds,
      failed: report.summary.requirements.fail ?? -1,
      inconclusive: report.summary.requirements.inconclusive ?? -1,
      happy: Object.fromEntries(happyPath.map((id) => [id, verdictOf.get(id) ?? 'absent'])),
      spentByAccount: before - after,
      spentByRun: /credits (\d+) of \d+/.exec(out)?.[1] ?? '?',
      headline: out.trim().split('\n').at(-1) ?? '',
    };
  } finally {
    serve.kill('SIGTERM');
    if (!values.keep) rmSync(dir, { recursive: true, force: true });
  }
}

let ok = true;
for (const seed of values.seed ?? []) {
  const o = await runOnce(seed);
  const pass =
    o.exit === 0 &&
    o.failed === 0 &&
    o.inconclusive === 0 &&
    Object.values(o.happy).every((v) => v === 'pass') &&
    String(o.spentByAccount) === o.spentByRun;
  ok &&= pass;
  process.stdout.write(
    [
      `seed ${o.seed}: ${pass ? 'ACCEPTED' : 'NOT ACCEPTED'} (exit ${o.exit}, ${o.seconds} s)`,
      `  requirements failed ${o.failed}, inconclusive ${o.inconclusive}`,
      `  happy path: ${Object.entries(o.happy)
        .map(([id, v]) => `${id} ${v}`)
        .join(', ')}`,
      `  credits: the run counted ${o.spentByRun}; GET /account went down by ${o.spentByAccount}`,
      `  ${o.headline}`,
      '',
    ].join('\n'),
  );
}
process.exitCode = ok ? 0 : 1;
