/**
 * The samples cover every operation of openapi.yaml in both languages, show the same example values
 * in both, and every TypeScript sample type-checks against the typed client (src/sdk, imported as
 * `tryon-conformance/client`); a sample calling a method the client lacks does not.
 */
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { listOperations, openapi } from '../../contract/openapi.ts';
import { paths } from '../../contract/paths.ts';
import { clientMethods, operationSamples } from './operation-samples.ts';

const samples = operationSamples(openapi);

/** Type errors of each sample (file name → messages), compiled together against src/sdk. */
function typeErrors(sources: Readonly<Record<string, string>>): Record<string, string[]> {
  const dir = join(paths.root, '.samples-check');
  const files = Object.fromEntries(Object.entries(sources).map(([name, text]) => [join(dir, `${name}.ts`), text]));
  const options: ts.CompilerOptions = {
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    allowImportingTsExtensions: true,
    lib: ['lib.es2022.d.ts'],
    types: ['node'],
    paths: { 'tryon-conformance/client': [join(paths.root, 'src', 'sdk', 'index.ts')] },
  };
  const host = ts.createCompilerHost(options);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (name, language, ...rest) =>
    files[name] === undefined
      ? getSourceFile(name, language, ...rest)
      : ts.createSourceFile(name, files[name], language, true);
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (name) => files[name] !== undefined || fileExists(name);
  const program = ts.createProgram(Object.keys(files), options, host);
  const out: Record<string, string[]> = {};
  for (const [file] of Object.entries(files)) {
    const name = file.slice(dir.length + 1, -3);
    out[name] = ts
      .getPreEmitDiagnostics(program, program.getSourceFile(file))
      .map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
  }
  return out;
}

describe('operation samples', () => {
  it('cover every operation of openapi.yaml, each with a curl and a TypeScript sample', () => {
    const operations = listOperations().map((op) => op.operationId);
    expect(samples.map((s) => s.operationId)).toEqual(operations);
    for (const s of samples) {
      expect(s.curl, s.operationId).toMatch(new RegExp(`^curl -sS -X ${s.method} '`));
      expect(s.typescript, s.operationId).toContain(`from 'tryon-conformance/client'`);
      expect(s.typescript, s.operationId).toContain(
        `client.${clientMethods[s.operationId as keyof typeof clientMethods]}(`,
      );
    }
  });

  it('show the same request body and Idempotency-Key in curl and in TypeScript', () => {
    const create = samples.find((s) => s.operationId === 'createTryOn');
    const body = /--data '(.*)'$/m.exec(create?.curl ?? '')?.[1];
    expect(body).toBeDefined();
    const values = Object.values(JSON.parse(body ?? '{}') as Record<string, unknown>);
    for (const value of values) expect(create?.typescript).toContain(JSON.stringify(value));
    const key = /Idempotency-Key: ([^']+)'/.exec(create?.curl ?? '')?.[1];
    expect(create?.typescript).toContain(`idempotencyKey: '${key}'`);
  });

  it('send the key everywhere but to the public result image', () => {
    for (const s of samples) {
      expect(s.curl.includes('Authorization: Bearer'), s.operationId).toBe(s.operationId !== 'getResultImage');
    }
  });

  it('type-check in TypeScript against the typed client, and a wrong method name does not', () => {
    const sources = Object.fromEntries(samples.map((s) => [s.operationId, s.typescript]));
    const broken = (sources.createTryOn ?? '').replace('client.startTryOn(', 'client.startTryon(');
    const errors = typeErrors({ ...sources, broken });
    const { broken: brokenErrors, ...rest } = errors;
    expect(rest).toEqual(Object.fromEntries(samples.map((s) => [s.operationId, []])));
    expect(brokenErrors?.join('\n')).toMatch(/startTryon/);
  }, 60_000);
});
