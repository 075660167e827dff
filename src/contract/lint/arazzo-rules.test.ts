/**
 * Proves `tryon/arazzo-steps-resolve` with the real Redocly CLI and redocly.yaml: silent on
 * arazzo/tryon-flows.arazzo.yaml, and reporting each planted break (a step calling an operation
 * that does not exist, a parameter the operation lacks, a required header left unset, a security
 * scheme that does not exist) at its place. The copies live in a temporary directory, their source
 * descriptions pointed at the repository's OpenAPI files by absolute path.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { paths } from '../paths.ts';

/** A parsed Arazzo document; the mutations below reach into it freely. */
// biome-ignore lint/suspicious/noExplicitAny: test mutations of parsed YAML
type Doc = Record<string, any>;

const arazzoPath = join(paths.root, 'arazzo', 'tryon-flows.arazzo.yaml');
const original = readFileSync(arazzoPath, 'utf8');
const rule = 'tryon/arazzo-steps-resolve';

const stepOf = (d: Doc, workflowId: string, stepId: string): Doc =>
  d.workflows.find((w: Doc) => w.workflowId === workflowId).steps.find((s: Doc) => s.stepId === stepId);

const cases: Array<[string, string, (d: Doc) => void]> = [
  [
    'an operationId the source does not have',
    '#/workflows/5/steps/7/operationId',
    (d) => {
      stepOf(d, 'failure-refunded', 'balance').operationId = '$sourceDescriptions.tryon.getBalance';
    },
  ],
  [
    'a parameter the operation does not have',
    '#/workflows/1/steps/4/parameters/1/name',
    (d) => {
      stepOf(d, 'upload-start-poll', 'pollUntilSuccess').parameters.push({ name: 'wait', in: 'query', value: 1 });
    },
  ],
  [
    'a required header left unset',
    '#/workflows/1/steps/3',
    (d) => {
      stepOf(d, 'upload-start-poll', 'start').parameters = [];
    },
  ],
  [
    'a security scheme the source does not have',
    '#/workflows/0/steps/0/x-security/0/schemeName',
    (d) => {
      stepOf(d, 'new-account', 'createAccount')['x-security'][0].schemeName = '$sourceDescriptions.control.token';
    },
  ],
];

interface Problem {
  ruleId: string;
  location: Array<{ pointer: string }>;
}

let dir: string;
let clean: Problem[];
let broken: Problem[][];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'arazzo-rules-'));
  const write = async (name: string, mutate?: (d: Doc) => void) => {
    const doc = parse(original, { merge: true }) as Doc;
    doc.sourceDescriptions[0].url = paths.openapi;
    doc.sourceDescriptions[1].url = join(paths.root, 'openapi-control.yaml');
    mutate?.(doc);
    const file = join(dir, `${name}.arazzo.yaml`);
    await writeFile(file, stringify(doc, { aliasDuplicateObjects: false }));
    return file;
  };
  const files = await Promise.all([write('clean'), ...cases.map(([, , mutate], i) => write(`case-${i}`, mutate))]);
  const results = await Promise.all(files.map(lint));
  clean = results[0] ?? [];
  broken = results.slice(1);
}, 60_000);

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('tryon/arazzo-steps-resolve', () => {
  it('finds no problem in the flows', () => {
    expect(clean.map((p) => `${p.ruleId} ${p.location[0]?.pointer}`)).toEqual([]);
  });

  it.each(cases.map(([name, pointer], i) => [name, pointer, i] as const))('reports %s', (_name, pointer, i) => {
    const problems = (broken[i] ?? []).filter((p) => p.ruleId.startsWith('tryon/'));
    expect(problems.map((p) => p.ruleId)).toEqual([rule]);
    expect(problems[0]?.location[0]?.pointer).toBe(pointer);
  });
});

async function lint(file: string): Promise<Problem[]> {
  const cli = join(paths.root, 'node_modules', '@redocly', 'cli', 'bin', 'cli.js');
  const args = [cli, 'lint', file, '--config', join(paths.root, 'redocly.yaml'), '--format=json'];
  const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' };
  const { stdout } = await promisify(execFile)(process.execPath, args, { cwd: paths.root, env }).catch(
    (error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }),
  );
  const start = stdout.indexOf('{');
  return (JSON.parse(stdout.slice(start)) as { problems: Problem[] }).problems;
}
