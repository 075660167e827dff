import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { keptCopyFileOf, loadOpenApi, parseOpenApi, sha256Of } from './openapi.ts';

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
    expect(
      loadOpenApi(text, copyFile('same.json', JSON.stringify({ sha256: sha256Of(text), document })), undefined),
    ).toEqual(document);
  });

  it('parses the YAML when the copy was made from other text, is broken, or is missing', () => {
    const document = { openapi: '3.1.0', info: { title: 'Stale', version: '1' }, paths: {} };
    const parsed = parseOpenApi(text);
    expect(
      loadOpenApi(text, copyFile('stale.json', JSON.stringify({ sha256: sha256Of(`${text}#`), document })), undefined),
    ).toEqual(parsed);
    expect(loadOpenApi(text, copyFile('broken.json', '{"sha256": '), undefined)).toEqual(parsed);
    expect(
      loadOpenApi(
        text,
        copyFile('no-document.json', JSON.stringify({ sha256: sha256Of(text), document: [1] })),
        undefined,
      ),
    ).toEqual(parsed);
    expect(loadOpenApi(text, pathToFileURL(join(dir, 'missing.json')), undefined)).toEqual(parsed);
  });

  it('without a copy from the build, keeps the parsed YAML for the next process, and reads it back only for the same text', () => {
    const missing = pathToFileURL(join(dir, 'no-build-copy.json'));
    const kept = pathToFileURL(join(dir, 'kept', 'openapi.parsed.json'));
    expect(loadOpenApi(text, missing, kept)).toEqual(parseOpenApi(text));
    expect(JSON.parse(readFileSync(kept, 'utf8'))).toEqual({ sha256: sha256Of(text), document: parseOpenApi(text) });
    // What the next process reads is the kept copy (its document differs here, to show which was read).
    const document = { openapi: '3.1.0', info: { title: 'Kept', version: '1' }, paths: {} };
    writeFileSync(kept, JSON.stringify({ sha256: sha256Of(text), document }));
    expect(loadOpenApi(text, missing, kept)).toEqual(document);
    // Other text is parsed, and replaces the kept copy.
    const other = `${text}x-other: true\n`;
    expect(loadOpenApi(other, missing, kept)).toEqual(parseOpenApi(other));
    expect(JSON.parse(readFileSync(kept, 'utf8')).sha256).toBe(sha256Of(other));
  });

  it('keeps its copy under TRYON_CACHE_DIR, or node_modules/.cache/tryon-conformance, and none with TRYON_CACHE=off', () => {
    expect(keptCopyFileOf({ TRYON_CACHE: 'off' })).toBeUndefined();
    expect(keptCopyFileOf({ TRYON_CACHE_DIR: dir })?.href).toBe(pathToFileURL(join(dir, 'openapi.parsed.json')).href);
    expect(keptCopyFileOf({})?.href).toMatch(/\/node_modules\/\.cache\/tryon-conformance\/openapi\.parsed\.json$/);
  });
});
