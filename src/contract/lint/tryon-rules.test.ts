/**
 * Proves the `tryon/*` Redocly rules (tryon-rules.js) with the real CLI and redocly.yaml: each rule reports
 * on a fixture that breaks exactly one thing, at the expected place, and stays silent on
 * fixtures/conforming.yaml and openapi.yaml. The CLI is spawned because the installed openapi-core 1.x is
 * not the engine bundled in @redocly/cli 2, which is what `npm run lint:spec` runs.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parse, stringify } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paths } from '../paths.ts';

/** A parsed YAML fixture; the mutations below reach into it freely. */
type Doc = Record<string, any>;

interface Problem {
  ruleId: string;
  message: string;
  location: Array<{ source: { ref: string }; pointer: string }>;
}

interface Case {
  /** The rule that must report, and the only `tryon/*` rule that may. */
  rule: string;
  /** JSON pointer of the first problem the rule reports. */
  pointer: string;
  /** How many problems the rule reports (shared components are reported once). */
  count?: number;
  mutate: (doc: Doc) => void;
}

const conformingPath = join(import.meta.dirname, 'fixtures', 'conforming.yaml');
const conforming = readFileSync(conformingPath, 'utf8');

const json = 'application/json';
const errorEnvelopeCopy = {
  type: 'object',
  required: ['error', 'code'],
  properties: { error: { type: 'string' }, code: { type: 'string' } },
};

const cases: Array<[string, Case]> = [
  [
    'an inline error schema that copies Error instead of referencing it',
    {
      rule: 'tryon/error-responses-use-error-schema',
      pointer: '#/paths/~1tryons/post/responses/500/content/application~1json/schema',
      mutate: (d) => {
        d.paths['/tryons'].post.responses['500'].content[json].schema.allOf[0] = errorEnvelopeCopy;
      },
    },
  ],
  [
    'a shared error response whose allOf lacks Error (reported once for three operations)',
    {
      rule: 'tryon/error-responses-use-error-schema',
      pointer: '#/components/responses/Unauthorized/content/application~1json/schema',
      count: 1,
      mutate: (d) => {
        d.components.responses.Unauthorized.content[json].schema.allOf[0] = { $ref: '#/components/schemas/TryOn' };
      },
    },
  ],
  [
    'a routing error without a JSON body',
    {
      rule: 'tryon/error-responses-use-error-schema',
      pointer: '#/x-routing-errors/responses/404',
      mutate: (d) => {
        delete d['x-routing-errors'].responses['404'].content;
      },
    },
  ],
  [
    'a keyed operation that does not document 429',
    {
      rule: 'tryon/documents-spec-errors',
      pointer: '#/paths/~1tryons~1{id}/get/responses',
      mutate: (d) => {
        delete d.paths['/tryons/{id}'].get.responses['429'];
      },
    },
  ],
  [
    'an operation that turns security on but documents none of 401, 429, 500',
    {
      rule: 'tryon/documents-spec-errors',
      pointer: '#/paths/~1i~1{file}/get/responses',
      count: 3,
      mutate: (d) => {
        d.paths['/i/{file}'].get.security = [{ apiKey: [] }];
      },
    },
  ],
  [
    'a 429 without a Retry-After header',
    {
      rule: 'tryon/documents-spec-errors',
      pointer: '#/components/responses/RateLimited',
      mutate: (d) => {
        delete d.components.responses.RateLimited.headers;
        delete d.components.headers;
      },
    },
  ],
  [
    'a 429 whose Retry-After is optional',
    {
      rule: 'tryon/documents-spec-errors',
      pointer: '#/components/headers/RetryAfter',
      mutate: (d) => {
        d.components.headers.RetryAfter.required = false;
      },
    },
  ],
  [
    'a JSON response without an example',
    {
      rule: 'tryon/operation-examples',
      pointer: '#/paths/~1tryons~1{id}/get/responses/200/content/application~1json',
      mutate: (d) => {
        delete d.paths['/tryons/{id}'].get.responses['200'].content[json].example;
      },
    },
  ],
  [
    'a multipart request body with an empty examples map',
    {
      rule: 'tryon/operation-examples',
      pointer: '#/paths/~1images/post/requestBody/content/multipart~1form-data',
      mutate: (d) => {
        d.paths['/images'].post.requestBody.content['multipart/form-data'].examples = {};
      },
    },
  ],
  [
    'a binary image response without an example',
    {
      rule: 'tryon/operation-examples',
      pointer: '#/paths/~1i~1{file}/get/responses/200/content/image~1png',
      mutate: (d) => {
        delete d.paths['/i/{file}'].get.responses['200'].content['image/png'].example;
      },
    },
  ],
  [
    'an error response that does not pin code',
    {
      rule: 'tryon/error-code-enum',
      pointer: '#/components/responses/Unauthorized/content/application~1json/schema',
      mutate: (d) => {
        d.components.responses.Unauthorized.content[json].schema = { $ref: '#/components/schemas/Error' };
      },
    },
  ],
  [
    'a pinned code that is not in ErrorCode',
    {
      rule: 'tryon/error-code-enum',
      pointer: '#/components/responses/NotFound/content/application~1json/schema/allOf/1/properties/code/enum/1',
      mutate: (d) => {
        d.components.responses.NotFound.content[json].schema.allOf[1].properties.code.enum = [
          'NOT_FOUND',
          'NO_SUCH_IMAGE',
        ];
      },
    },
  ],
  [
    'a stray code pinned behind a $ref chain',
    {
      rule: 'tryon/error-code-enum',
      pointer: '#/components/schemas/RateLimitedError/allOf/1/properties/code/enum/1',
      mutate: (d) => {
        d.components.schemas.RateLimitedError.allOf[1].properties.code.enum = ['RATE_LIMITED', 'SLOW_DOWN'];
      },
    },
  ],
  [
    'an x-implementation-defined-codes entry the response does not pin',
    {
      rule: 'tryon/error-code-enum',
      pointer: '#/components/responses/BadRequest/x-implementation-defined-codes/1',
      mutate: (d) => {
        d.components.responses.BadRequest['x-implementation-defined-codes'] = ['INVALID_REQUEST', 'NOT_FOUND'];
      },
    },
  ],
  [
    'an implementation-defined point without x-conformance',
    {
      rule: 'tryon/implementation-defined',
      pointer: '#/paths/~1tryons~1{id}/get/x-implementation-defined',
      mutate: (d) => {
        delete d.paths['/tryons/{id}'].get['x-conformance'];
      },
    },
  ],
  [
    'an empty x-point',
    {
      rule: 'tryon/implementation-defined',
      pointer: '#/info/x-point',
      mutate: (d) => {
        d.info['x-point'] = '';
      },
    },
  ],
  [
    'two points sharing one x-point',
    {
      rule: 'tryon/implementation-defined',
      pointer: '#/paths/~1tryons~1{id}/get/x-point',
      mutate: (d) => {
        d.components.requestBodies.CreateTryOn['x-point'] = 'terminal-transitions';
      },
    },
  ],
  [
    'x-point and friends without x-implementation-defined: true',
    {
      rule: 'tryon/implementation-defined',
      pointer: '#/info/x-point',
      count: 3,
      mutate: (d) => {
        delete d.info['x-implementation-defined'];
      },
    },
  ],
  [
    'a link to an operationId that does not exist',
    {
      rule: 'tryon/links-resolve',
      pointer: '#/components/links/GetTryOn/operationId',
      mutate: (d) => {
        d.components.links.GetTryOn.operationId = 'getTryon';
      },
    },
  ],
  [
    'a link that sets a parameter the target does not have',
    {
      rule: 'tryon/links-resolve',
      pointer: '#/components/links/GetTryOn/parameters/tryOnId',
      count: 2,
      mutate: (d) => {
        d.components.links.GetTryOn.parameters = { tryOnId: '$response.body#/id' };
      },
    },
  ],
  [
    'a link that reads a body field the response does not require',
    {
      rule: 'tryon/links-resolve',
      pointer: '#/components/links/GetTryOn/parameters/id',
      mutate: (d) => {
        d.components.links.GetTryOn.parameters.id = '$response.body#/tryOnId';
      },
    },
  ],
  [
    'a link whose request body names a field the target does not declare',
    {
      rule: 'tryon/links-resolve',
      pointer: '#/paths/~1images/post/responses/200/links/StartWithPerson/requestBody/personImage',
      mutate: (d) => {
        d.paths['/images'].post.responses['200'].links.StartWithPerson.requestBody = {
          personImage: '$response.body#/id',
        };
      },
    },
  ],
  [
    'a link that gives a request body to an operation that takes none',
    {
      rule: 'tryon/links-resolve',
      pointer: '#/paths/~1images/post/responses/200/links/StartWithPerson/requestBody',
      mutate: (d) => {
        const link = d.paths['/images'].post.responses['200'].links.StartWithPerson;
        link.operationId = 'getTryOn';
        link.parameters = { id: '$response.body#/id' };
      },
    },
  ],
  [
    'a link with a malformed runtime expression',
    {
      rule: 'tryon/links-resolve',
      pointer: '#/components/links/GetTryOn/parameters/id',
      mutate: (d) => {
        d.components.links.GetTryOn.parameters.id = '$response.id';
      },
    },
  ],
];

let dir: string;
/** Problems per linted file, keyed by the file name given to the CLI. */
let problemsByFile: Map<string, Problem[]>;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tryon-rules-'));
  const files = await Promise.all(
    cases.map(async ([, c], i) => {
      const doc = parse(conforming) as Doc;
      c.mutate(doc);
      const file = join(dir, `case-${i}.yaml`);
      await writeFile(file, stringify(doc));
      return file;
    }),
  );
  problemsByFile = await lint([paths.openapi, conformingPath, ...files]);
}, 60_000);

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('tryon Redocly rules', () => {
  it('find no problem in openapi.yaml', () => {
    expect(summarise(problemsByFile.get(paths.openapi))).toEqual([]);
  });

  it('find no problem in the conforming fixture', () => {
    expect(summarise(problemsByFile.get(conformingPath))).toEqual([]);
  });

  it.each(cases.map(([name, c], i) => [name, c, i] as const))('report %s', (_name, c, i) => {
    const problems = (problemsByFile.get(join(dir, `case-${i}.yaml`)) ?? []).filter((p) =>
      p.ruleId.startsWith('tryon/'),
    );
    expect(new Set(problems.map((p) => p.ruleId))).toEqual(new Set([c.rule]));
    expect(problems[0]?.location[0]?.pointer).toBe(c.pointer);
    expect(problems).toHaveLength(c.count ?? 1);
  });
});

/** `ruleId pointer: message` lines, readable when a "no problem" assertion fails. */
function summarise(problems: Problem[] | undefined): string[] {
  if (problems === undefined) throw new Error('the file was not linted');
  return problems.map((p) => `${p.ruleId} ${p.location[0]?.pointer ?? ''}: ${p.message}`);
}

/**
 * Runs `redocly lint --format=json` once over all files. Redocly 2 prints one JSON report per
 * file, in the order given, so the n-th report belongs to the n-th file.
 */
async function lint(files: string[]): Promise<Map<string, Problem[]>> {
  const cli = join(paths.root, 'node_modules', '@redocly', 'cli', 'bin', 'cli.js');
  const args = [
    cli,
    'lint',
    ...files,
    '--config',
    join(paths.root, 'redocly.yaml'),
    '--format=json',
    '--max-problems=10000',
  ];
  const { stdout, stderr, code } = await run(process.execPath, args);
  const reports = splitJsonObjects(stdout).map((text) => JSON.parse(text) as { problems: Problem[] });
  if (reports.length !== files.length) {
    throw new Error(
      `redocly lint gave ${reports.length} JSON reports for ${files.length} files (exit ${code}):\n${stderr}`,
    );
  }
  return new Map(
    files.map((file, i) => {
      const problems = reports[i]?.problems ?? [];
      for (const p of problems) {
        const ref = resolve(paths.root, p.location[0]?.source.ref ?? '');
        if (ref !== file) throw new Error(`report ${i} is about ${ref}, expected ${file}`);
      }
      return [file, problems];
    }),
  );
}

/** Splits concatenated top-level JSON objects (`{...}{...}`), minding strings. */
function splitJsonObjects(text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = -1;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (inString) {
      if (ch === '\\') i++;
      else if (ch === '"') inString = false;
    } else if (ch === '"') {
      inString = true;
    } else if (ch === '{') {
      if (depth++ === 0) start = i;
    } else if (ch === '}' && --depth === 0) {
      out.push(text.slice(start, i + 1));
    }
  }
  return out;
}

function run(command: string, args: string[]): Promise<{ stdout: string; stderr: string; code: number | null }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: paths.root,
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ stdout, stderr, code }));
  });
}
