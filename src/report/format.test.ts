import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { toCurl } from '../client/curl.ts';
import { prettyCurl } from './format.ts';

/** The arguments bash gives `curl` for `line`, with a shell function standing in for curl. */
function pasted(line: string): string[] {
  const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', TRYON_API_KEY: 'pasted-key' };
  return execFileSync('bash', ['-c', `curl() { printf '%s\\0' "$@"; }\n${line}`], { env, encoding: 'utf8' })
    .split('\0')
    .slice(0, -1);
}

describe('prettyCurl: one flag per line, still the same command', () => {
  it('keeps a double-quoted placeholder word whole, and pastes to the same arguments as the one-line form', () => {
    const line = toCurl(
      {
        method: 'POST',
        url: 'http://127.0.0.1:8787/api/v1/tryons',
        headers: { authorization: 'Bearer vto_live_abcdef123', 'x-note': 'a "b" $c' },
        body: '{"title":"it\'s ok"}',
      },
      { vto_live_abcdef123: '$TRYON_API_KEY' },
    );
    const pretty = prettyCurl(line);
    expect(pretty).toBe(
      [
        `curl -sS -i -X POST`,
        `-H "authorization: Bearer $TRYON_API_KEY"`,
        `-H 'x-note: a "b" $c'`,
        `--data-binary '{"title":"it'\\''s ok"}'`,
        `'http://127.0.0.1:8787/api/v1/tryons'`,
      ].join(' \\\n  '),
    );
    expect(pasted(pretty)).toEqual(pasted(line));
    expect(pasted(pretty)).toContain('authorization: Bearer pasted-key');
  });
});
