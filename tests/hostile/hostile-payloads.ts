/**
 * The text a hostile target writes into every string and header it controls: script for report.html,
 * terminal control sequences, Markdown images and links, XML breakers, shell metacharacters, a 1 MB
 * string, and JSON 200,000 levels deep. Every piece that would act (a script, an image, a link, a
 * command) aims at a canary server or a sentinel file, so a test sees whether it acted.
 */
import { join } from 'node:path';

/** Where the payloads aim. */
export interface PayloadAims {
  /** `http://127.0.0.1:<port>` of a server that records every request it gets (canary-server.ts). */
  readonly canaryOrigin: string;
  /** A directory for the shell payloads: they create files in it, or delete `keep` from it. */
  readonly sentinelDir: string;
}

/** The global that every injected script sets; a page that has it ran target script. */
export const pwnedGlobal = '__pwned';

/** The file a shell payload would delete; the test creates it and checks it is still there. */
export const keptSentinel = 'keep';

/** The files shell payloads would create; none may exist after the run. */
export const createdSentinels: readonly string[] = ['cmdsubst', 'backtick', 'semicolon'];

export interface HostilePayloads {
  /** One string with every kind of payload, short enough for an id or a URL path. */
  readonly short: string;
  /**
   * A string of 1 MB (10^6 characters): the short payload at both ends of a run of filler. A body
   * carrying it stays under 1 MiB, so a runner that bounds what it parses at 1 MiB still reads it.
   */
  readonly huge: string;
  /** What Node lets a header value carry (no C0 controls): script, Markdown, XML, shell, and a C1 CSI. */
  readonly header: string;
  /** A name for a JSON field (GET /account field names reach the run's messages). */
  readonly fieldName: string;
}

/** The length of the huge string. */
export const hugeLength = 1_000_000;

/** How many levels deep the deep JSON goes (1,000 passed and 2,000 overflowed the balance reader). */
export const deepLevels = 200_000;

/** The payloads aimed at `aims`. */
export function hostilePayloads(aims: PayloadAims): HostilePayloads {
  const canary = aims.canaryOrigin;
  const sentinel = (name: string) => join(aims.sentinelDir, name);
  const html = [
    `<script>window.${pwnedGlobal}=1;alert('script')</script>`,
    `</script><script>window.${pwnedGlobal}=2;alert('breakout')</script>`,
    `<img src=x onerror="window.${pwnedGlobal}=3;alert('onerror')">`,
    `<img src="${canary}/html-img.png">`,
    `"><svg onload="window.${pwnedGlobal}=4;alert('svg')">`,
    `'><a href="javascript:alert(5)">j</a>`,
  ].join('');
  const terminal = [
    '\x1b]0;pwned\x07', // OSC 0: window title, ended by BEL
    '\x1b[2J\x1b[H', // clear screen, cursor home
    `\x1b]8;;${canary}/osc8\x1b\\click\x1b]8;;\x1b\\`, // OSC 8 hyperlink
    '\x9b31m', // C1 CSI: red
    '\x07\x08\x7f', // BEL, backspace, DEL
  ].join('');
  const markdown = [
    `![px](${canary}/px.png)`,
    '[x](javascript:alert(1))',
    `<${canary}/autolink>`,
    `${canary}/bare`,
    '`',
    '```',
    // A line break ends a table row or a code span: what follows starts a line of its own.
    `\n\n[ref]: ${canary}/ref\n![nl](${canary}/newline.png)\r\n| ![cell](${canary}/cell.png) |\n`,
  ].join(' ');
  const xml = [']]>', '\x00', '</testcase></testsuite>', '<![CDATA[', '&#0;', '&bogus;', '\ufffe'].join(' ');
  const shell = [
    `$(touch ${sentinel('cmdsubst')})`,
    `\`touch ${sentinel('backtick')}\``,
    `; touch ${sentinel('semicolon')}; rm -f ${sentinel(keptSentinel)};`,
    '\' " \\',
  ].join(' ');
  const short = `hostile ${html} ${terminal} ${markdown} ${xml} ${shell} end`;
  const filler = 'A'.repeat(hugeLength - 2 * short.length);
  const header = [
    `<script>window.${pwnedGlobal}=6;alert('header')</script>`,
    `<img src="${canary}/header-img.png">`,
    `![px](${canary}/header-px.png) [x](javascript:alert(1)) <${canary}/header-autolink>`,
    ']]></testcase>',
    `$(touch ${sentinel('cmdsubst')}) \`touch ${sentinel('backtick')}\``,
    '\x9b2J',
  ].join(' ');
  return { short, huge: `${short}${filler}${short}`, header, fieldName: `credits ${short}` };
}

/** `[[[…1…]]]`, `levels` deep, as JSON text (built without recursion). */
export function deepArrayJson(levels: number = deepLevels): string {
  return `${'['.repeat(levels)}1${']'.repeat(levels)}`;
}
