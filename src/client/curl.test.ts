/**
 * Curl evidence pastes into a shell as it reads: a redacted secret is a variable that expands
 * (`"…Bearer $TRYON_API_KEY"`), and every other character arrives literally.
 */
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import type { RecordedRequest } from './exchange.ts';
import { redact, shellWord, toCurl } from './curl.ts';

const key = 'vto_live_s3cr3tKEYvalue';
const token = 'control-token-123';
const secrets = { [key]: '$TRYON_API_KEY', [token]: '$TRYON_CONTROL_TOKEN' };
const env = {
  PATH: process.env.PATH ?? '/usr/bin:/bin',
  TRYON_API_KEY: 'pasted-key',
  TRYON_CONTROL_TOKEN: 'pasted-token',
};

/** The arguments bash gives `curl` when `line` is pasted, with a shell function standing in for curl. */
function pasted(line: string): string[] {
  const out = execFileSync('bash', ['-c', `curl() { printf '%s\\0' "$@"; }\n${line}`], { env, encoding: 'utf8' });
  return out.split('\0').slice(0, -1);
}

describe('shellWord: one shell word, placeholders expanding, the rest literal', () => {
  const rows: Array<[string, { text: string; want: string; expands: string }]> = [
    [
      'no secret: single quotes',
      {
        text: `it's $HOME \`x\` "q" \\ !`,
        want: `'it'\\''s $HOME \`x\` "q" \\ !'`,
        expands: `it's $HOME \`x\` "q" \\ !`,
      },
    ],
    [
      'a bearer key: double quotes',
      {
        text: `authorization: Bearer ${key}`,
        want: '"authorization: Bearer $TRYON_API_KEY"',
        expands: 'authorization: Bearer pasted-key',
      },
    ],
    [
      'special characters beside a secret are escaped',
      {
        text: `x-note: $HOME \`id\` "q" \\n ${key}`,
        want: '"x-note: \\$HOME \\`id\\` \\"q\\" \\\\n $TRYON_API_KEY"',
        expands: 'x-note: $HOME `id` "q" \\n pasted-key',
      },
    ],
    [
      'a secret followed by name characters gets braces',
      { text: `${key}abc`, want: '"${TRYON_API_KEY}abc"', expands: 'pasted-keyabc' },
    ],
    [
      'a ! beside a secret goes in single quotes',
      {
        text: `{"k":"${key}","x":"hi!"}`,
        want: `'{"k":"'"\${TRYON_API_KEY}"'","x":"hi!"}'`,
        expands: '{"k":"pasted-key","x":"hi!"}',
      },
    ],
    [
      'two secrets in one word',
      { text: `${token}:${key}`, want: '"$TRYON_CONTROL_TOKEN:$TRYON_API_KEY"', expands: 'pasted-token:pasted-key' },
    ],
  ];

  it.each(rows)('%s', (_name, { text, want, expands }) => {
    const word = shellWord(text, secrets);
    expect(word).toBe(want);
    expect(pasted(`curl ${word}`)).toEqual([expands]);
  });

  it('writes a placeholder that is no variable name as literal text', () => {
    const word = shellWord(`Bearer ${key}`, { [key]: '<redacted $(id)>' });
    expect(pasted(`curl ${word}`)).toEqual(['Bearer <redacted $(id)>']);
  });
});

describe('toCurl', () => {
  const request: RecordedRequest = {
    method: 'POST',
    url: 'http://127.0.0.1:8787/api/v1/tryons?x=$y',
    headers: {
      authorization: `Bearer ${key}`,
      'idempotency-key': 'conf-7f3a9c',
      'content-type': 'application/json',
      'content-length': '42',
    },
    body: `{"title":"it's \`a\` $shirt!","consent":true}`,
  };

  it('quotes the key so that it expands when pasted, and nothing else', () => {
    const line = toCurl(request, secrets);
    expect(line).toBe(
      `curl -sS -i -X POST -H "authorization: Bearer $TRYON_API_KEY" -H 'idempotency-key: conf-7f3a9c' -H 'content-type: application/json' --data-binary '{"title":"it'\\''s \`a\` $shirt!","consent":true}' 'http://127.0.0.1:8787/api/v1/tryons?x=$y'`,
    );
    expect(line).not.toContain(key);
    expect(pasted(line)).toEqual([
      '-sS',
      '-i',
      '-X',
      'POST',
      '-H',
      'authorization: Bearer pasted-key',
      '-H',
      'idempotency-key: conf-7f3a9c',
      '-H',
      'content-type: application/json',
      '--data-binary',
      `{"title":"it's \`a\` $shirt!","consent":true}`,
      'http://127.0.0.1:8787/api/v1/tryons?x=$y',
    ]);
  });

  it('describes a multipart body as -F, and redacts a secret in the URL', () => {
    const line = toCurl(
      {
        method: 'POST',
        url: `http://h/api/v1/images?k=${key}`,
        headers: {},
        multipart: { field: 'file', filename: 'a b.png', contentType: 'image/png', bytes: 9 },
      },
      secrets,
    );
    expect(pasted(line)).toEqual([
      '-sS',
      '-i',
      '-X',
      'POST',
      '-F',
      'file=@a b.png;type=image/png',
      'http://h/api/v1/images?k=pasted-key',
    ]);
  });

  it('redact still replaces secrets in plain text', () => {
    expect(redact(`Bearer ${key}`, secrets)).toBe('Bearer $TRYON_API_KEY');
  });
});
