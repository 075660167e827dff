import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { loadOpenApi, parseOpenApi, sha256Of } from './openapi.ts';

const dir = mkdtempSync(join(tmpdir(), 'openapi-copy-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const text = 'openapi: 3.1.0\ninfo:\n  title: From YAML\n  version: "1"\npaths: {}\n';

function copyFile(name: string, content: string): URL {
  const path = join(dir, name);
  writeFileSync(path, content);
  return pathToFileURL(path);
}

describe('loadOpenApi', () => {
  it("reads the build's parsed copy when it was parsed from the same text", () => {
    const document = { openapi: '3.1.0', info: { title: 'From the copy', version: '1' }, paths: {} };
    expect(loadOpenApi(text, copyFile('same.json', JSON.stringify({ sha256: sha256Of(text), document })))).toEqual(document);
  });

  it('parses the YAML when the copy was made from other text, is broken, or is missing', () => {
    const document = { openapi: '3.1.0', info: { title: 'Stale', version: '1' }, paths: {} };
    const parsed = parseOpenApi(text);
    expect(loadOpenApi(text, copyFile('stale.json', JSON.stringify({ sha256: sha256Of(`${text}#`), document })))).toEqual(parsed);
    expect(loadOpenApi(text, copyFile('broken.json', '{"sha256": '))).toEqual(parsed);
    expect(loadOpenApi(text, copyFile('no-document.json', JSON.stringify({ sha256: sha256Of(text), document: [1] })))).toEqual(parsed);
    expect(loadOpenApi(text, pathToFileURL(join(dir, 'missing.json')))).toEqual(parsed);
  });
});
