/**
 * An assertion's text as a sentence: what was expected and what came, in words, with the test's own
 * words in front (where: method, path, status). No matcher internals: chai's "to not deeply equal",
 * vitest's "// Object.is equality", terminal colours, `expect(received).toSatisfy()` blocks, nor
 * fast-check's whole report (its counterexample, shrink count, seed and path are kept, in a few lines).
 */

/** Terminal colour codes (SGR), which vitest puts into some matcher texts. */
const ansi = /\u001b\[[0-9;]*m/g;

/** chai's verbs, longest first, each with the sentence it makes of (want, got) and of its negation. */
const verbs: ReadonlyArray<
  readonly [string, (want: string, got: string) => string, (want: string, got: string) => string]
> = [
  [
    'be less than or equal to',
    (w, g) => `expected at most ${w}, received ${g}`,
    (w, g) => `expected more than ${w}, received ${g}`,
  ],
  [
    'be greater than or equal to',
    (w, g) => `expected at least ${w}, received ${g}`,
    (w, g) => `expected less than ${w}, received ${g}`,
  ],
  [
    'be less than',
    (w, g) => `expected less than ${w}, received ${g}`,
    (w, g) => `expected at least ${w}, received ${g}`,
  ],
  [
    'be greater than',
    (w, g) => `expected more than ${w}, received ${g}`,
    (w, g) => `expected at most ${w}, received ${g}`,
  ],
  ['be below', (w, g) => `expected less than ${w}, received ${g}`, (w, g) => `expected at least ${w}, received ${g}`],
  ['be above', (w, g) => `expected more than ${w}, received ${g}`, (w, g) => `expected at most ${w}, received ${g}`],
  ['be at most', (w, g) => `expected at most ${w}, received ${g}`, (w, g) => `expected more than ${w}, received ${g}`],
  [
    'be at least',
    (w, g) => `expected at least ${w}, received ${g}`,
    (w, g) => `expected less than ${w}, received ${g}`,
  ],
  [
    'be type of',
    (w, g) => `expected a value of type ${w}, received ${g}`,
    (w, g) => `expected a value not of type ${w}, received ${g}`,
  ],
  [
    'be an instance of',
    (w, g) => `expected an instance of ${w}, received ${g}`,
    (w, g) => `expected no instance of ${w}, received ${g}`,
  ],
  [
    'have a length of',
    (w, g) => `expected a length of ${w}, received ${g}`,
    (w, g) => `expected a length other than ${w}, received ${g}`,
  ],
  [
    'match object',
    (w, g) => `expected an object with ${w}, received ${g}`,
    (w, g) => `expected an object without ${w}, received ${g}`,
  ],
  [
    'match',
    (w, g) => `expected text matching ${w}, received ${g}`,
    (w, g) => `expected text not matching ${w}, received ${g}`,
  ],
  ['include', (w, g) => `${w} is not among ${g}`, (w, g) => `${w} is among ${g}, where it must not be`],
  ['contain', (w, g) => `${w} is not in ${g}`, (w, g) => `${w} is in ${g}, where it must not be`],
  ['deeply equal', equal, unequal],
  ['strictly equal', equal, unequal],
  ['equal', equal, unequal],
  ['be', be, unequal],
];

function equal(want: string, got: string): string {
  return `expected ${want}, received ${got}`;
}

function unequal(want: string, got: string): string {
  return `expected anything but ${want}, received ${got}`;
}

/** `to be X`, where X may be a state rather than a value: `to be defined`, `to be truthy`, `to be null`. */
function be(want: string, got: string): string {
  const states: Readonly<Record<string, string>> = {
    defined: 'a value',
    undefined: 'no value',
    truthy: 'a truthy value',
    falsy: 'a falsy value',
  };
  return `expected ${states[want] ?? want}, received ${got}`;
}

const verbPattern = verbs.map(([v]) => v.replaceAll(' ', '\\s')).join('|');
const chaiLine = new RegExp(
  `^(?<where>.*?)\\bexpected (?<got>(?:'(?:[^'\\\\]|\\\\.)*'|[^'])+?) (?<neg>not to |to not |to )(?<verb>${verbPattern})(?: (?<want>.*?))?(?: but got .*)?(?: // Object\\.is equality)?$`,
);

/** vitest's multi-line `expect(received).toSatisfy()` / `.toBeOneOf()` text, as one line. */
function blockSentence(text: string): string | undefined {
  const m =
    /^(?<where>[\s\S]*?)expect\(received\)\.(?:not\.)?to(?<verb>\w+)\(\)\s*Expected value to (?<what>[^:\n]+):\s*(?<want>[\s\S]*?)\s*Received:\s*(?<got>[\s\S]*)$/.exec(
      text,
    );
  if (!m?.groups) return undefined;
  const { where = '', what = '', want = '', got = '' } = m.groups;
  const flat = (s: string) =>
    s
      .replace(/\s+/g, ' ')
      .replace(/^Array \[ /, '[ ')
      .trim();
  const expectation = what === 'satisfy' ? 'a value that satisfies the rule' : `a value to ${what} ${flat(want)}`;
  return `${where}expected ${expectation}, received ${flat(got)}`;
}

/**
 * The first line of an assertion message as a sentence ("…: expected anything but 429, received 429"),
 * the test's own words before it kept; a line that is not a matcher's is returned as it was.
 */
export function assertionSentence(message: string): string {
  const text = message.replace(ansi, '');
  const block = blockSentence(text);
  if (block !== undefined) return block;
  const [first = '', ...more] = text.split('\n');
  // vitest's note on a subset match says nothing of the target.
  const rest = more.filter((line) => !/^\(\d+ matching propert(?:y|ies) omitted from actual\)$/.test(line));
  const m = chaiLine.exec(first);
  const verb = verbs.find(([v]) => v === m?.groups?.verb);
  if (!m?.groups || !verb) return [first.replace(/ \/\/ Object\.is equality$/, ''), ...rest].join('\n');
  const { where = '', got = '', neg = '', want = '' } = m.groups;
  const sentence = (neg === 'to ' ? verb[1] : verb[2])(want, got);
  return [`${where}${sentence}`, ...rest].join('\n');
}

/**
 * fast-check's report of a failed property, wherever it sits in `text`, cut to what a reader needs:
 * the counterexample, how often it was shrunk, and one replay line (seed and path); its option dump,
 * hints and error copies are left out. Text without such a report is returned as it was.
 */
export function shortPropertyReport(text: string): string {
  const at = text.search(/^Property failed after/m);
  if (at === -1) return text;
  const block = text.slice(at);
  const replayAt = block.search(/^Replay: /m);
  const counterexample = /^Counterexample: (.*)$/m.exec(block)?.[1];
  const shrunk = /^Shrunk (\d+) time/m.exec(block)?.[1];
  const seed = /\{ seed: (-?\d+)/.exec(block)?.[1] ?? /--seed (-?\d+)/.exec(block)?.[1];
  const path = /\bpath: "([\d:]+)"/.exec(block)?.[1] ?? /--path ([\d:]+)/.exec(block)?.[1];
  const after = replayAt === -1 ? '' : block.slice(replayAt).replace(/^Replay: .*(?:\n|$)/, '');
  const lines = propertyLines({
    counterexample,
    shrunk: shrunk === undefined ? undefined : Number(shrunk),
    seed,
    path,
  });
  return `${text.slice(0, at)}${lines}${after === '' ? '' : `\n${after}`}`;
}

/** The lines that tell a failed property: its counterexample, the shrink count, and the replay. */
export function propertyLines(p: {
  readonly counterexample?: string | undefined;
  readonly shrunk?: number | undefined;
  readonly seed?: number | string | undefined;
  readonly path?: string | undefined;
}): string {
  const shrunk =
    p.shrunk === undefined || p.shrunk === 0 ? '' : ` (shrunk ${p.shrunk} time${p.shrunk === 1 ? '' : 's'})`;
  return [
    ...(p.counterexample === undefined ? [] : [`Counterexample: ${p.counterexample}${shrunk}`]),
    ...(p.seed === undefined ? [] : [`Replay: --seed ${p.seed}${p.path === undefined ? '' : ` --path ${p.path}`}`]),
  ].join('\n');
}
