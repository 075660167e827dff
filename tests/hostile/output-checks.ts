/**
 * Checks of what a run against the hostile target printed and wrote, besides Markdown
 * (markdown-check.ts) and XML (strict-xml.ts): terminal bytes, target markup left raw in
 * report.html, and the shell commands a report offers for copying.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createdSentinels, keptSentinel, pwnedGlobal } from './hostile-payloads.ts';

/**
 * What in the terminal output could act on a terminal: bytes that are not UTF-8 (a lone 0x9b is a
 * CSI to an 8-bit terminal), and ESC, BEL or a C1 control (U+0080-U+009F, CSI and OSC among them).
 */
export function terminalFindings(output: Buffer): string[] {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(output);
  } catch {
    return ['the output is not valid UTF-8 (raw bytes of the target?)'];
  }
  const findings: string[] = [];
  const control = /[\u001b\u0007\u0080-\u009f]/g;
  for (let m = control.exec(text); m !== null && findings.length < 10; m = control.exec(text)) {
    const code = m[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0');
    const name = { '\u001b': 'ESC', '\u0007': 'BEL' }[m[0]] ?? `C1 U+${code}`;
    findings.push(`${name} at ${m.index}: ${JSON.stringify(text.slice(Math.max(0, m.index - 40), m.index + 20))}`);
  }
  return findings;
}

/** Pieces of the payload's markup that would run or load in a browser if they sat raw in HTML. */
export function rawMarkupIn(html: string, canaryOrigin: string): string[] {
  const pieces = [
    `<script>window.${pwnedGlobal}`,
    '<img src=x onerror',
    '<svg onload',
    `<img src="${canaryOrigin}`,
    '<a href="javascript:',
  ];
  return pieces.filter((piece) => html.includes(piece));
}

/** The shell commands a Markdown report offers: its fenced `sh` blocks. */
export function shellBlocks(markdown: string): string[] {
  const blocks: string[] = [];
  const fence = /^(`{3,}|~{3,})sh[ \t]*\n([\s\S]*?)\n\1[ \t]*$/gm;
  for (let m = fence.exec(markdown); m !== null; m = fence.exec(markdown)) blocks.push(m[2] ?? '');
  return blocks;
}

export interface ShellOutcome {
  /** Blocks bash cannot parse (a quote the target's text left open, or cut). */
  readonly unparsable: string[];
  /** Sentinels the commands created or deleted: target text that ran. */
  readonly acted: string[];
}

/**
 * Runs each block as a user who pastes it would, with `curl`, `npx` and `node` stubbed out as
 * functions that do nothing, in an empty environment, then looks at the sentinel directory: a
 * payload of hostile-payloads.ts that ran created a file there or deleted `keep`.
 */
export function runShellBlocks(blocks: readonly string[], sentinelDir: string): ShellOutcome {
  const unparsable: string[] = [];
  const env = { PATH: '/usr/bin:/bin', HOME: sentinelDir, TRYON_API_KEY: 'not-a-key' };
  const stubs = 'curl() { :; }; npx() { :; }; node() { :; }; . "$1"';
  blocks.forEach((block, i) => {
    // Through a file: a block may hold bytes (NUL) that no argument can carry.
    const script = join(dirname(sentinelDir), `block-${i}.sh`);
    writeFileSync(script, block);
    const options = { env, cwd: sentinelDir, timeout: 10_000, encoding: 'utf8' } as const;
    const bash = (args: string[]) => spawnSync('bash', ['--noprofile', '--norc', ...args], options);
    const syntax = bash(['-n', script]);
    if (syntax.status !== 0) {
      const why = syntax.stderr.trim().split('\n')[0]?.slice(-120);
      unparsable.push(`${JSON.stringify(block.slice(0, 100))}… (${why})`);
    }
    bash(['-c', stubs, 'bash', script]);
  });
  return { unparsable, acted: sentinelsActed(sentinelDir) };
}

/** What the shell payloads did to the sentinel directory: files created, `keep` deleted. */
export function sentinelsActed(sentinelDir: string): string[] {
  const created = createdSentinels.filter((name) => existsSync(join(sentinelDir, name)));
  const acted = created.map((name) => `${name} was created`);
  if (!existsSync(join(sentinelDir, keptSentinel))) acted.push(`${keptSentinel} was deleted`);
  return acted;
}
