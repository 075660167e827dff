/**
 * What the run learned about its target: a few facts any test may establish and every later test
 * reads, in any worker (one file of JSON lines that the run's main process names, each fact appended
 * in one write), so a later test does not wait again for what cannot come. A fact only ever ends a
 * test early as inconclusive or skipped, with the fact and the test that learned it as the reason;
 * it never fails one, and no fact is held that no exchange showed.
 */
import { closeSync, fstatSync, openSync, readSync, writeSync } from 'node:fs';
import { inject, TestRunner } from 'vitest';

/** The facts a run may learn. */
export type FactName = 'tryons-stay-pending' | 'same-answer-every-time' | 'starts-not-limited';

/** Each fact in words, as the report lists it. */
export const factStatements: Readonly<Record<FactName, string>> = {
  'tryons-stay-pending': 'try-ons on this target stayed pending for the whole give-up time',
  'same-answer-every-time': 'this target answers every body with the same example',
  'starts-not-limited':
    'this target answered more start requests of one account in a minute than its limit, without a 429',
};

/** One fact as the run learned it. */
export interface LearnedFact {
  readonly fact: FactName;
  readonly statement: string;
  /** What was seen that shows it, in a few words (a target's values are clipped). */
  readonly seen: string;
  /** The test that learned it (its full name), or `(outside a test)`. */
  readonly test: string;
}

declare module 'vitest' {
  interface TaskMeta {
    /** The facts this test established for the rest of the run (run-facts.ts). */
    learned?: LearnedFact[];
  }
  export interface ProvidedContext {
    /** The file the workers share the run's facts through; absent: each worker keeps its own. */
    runFactsFile?: string;
  }
}

/** The most of the facts file a worker reads: a few facts take a few hundred bytes. */
const maxFileBytes = 64 * 1024;
/** The longest `seen` text kept: it quotes values a target chose. */
const maxSeenChars = 300;

/** The facts of one run, read from and appended to `file` (undefined: this process's memory only). */
export class RunFacts {
  readonly #known = new Map<FactName, LearnedFact>();
  /** Bytes of the file already read: the pacer asks on every request, so only what was appended is read. */
  #offset = 0;
  constructor(readonly file: string | undefined) {}

  /** The fact, once any test of the run learned it. */
  known(name: FactName): LearnedFact | undefined {
    if (!this.#known.has(name)) for (const fact of this.#read()) if (!this.#known.has(fact.fact)) this.#keep(fact);
    return this.#known.get(name);
  }

  /** Records that the running test (or `test`) saw `fact`; a fact already known stays as it was first learned. */
  learn(name: FactName, seen: string, test: string = runningTestName()): LearnedFact {
    const earlier = this.known(name);
    if (earlier) return earlier;
    const fact: LearnedFact = { fact: name, statement: factStatements[name], seen: clipped(seen), test };
    this.#keep(fact);
    const current = TestRunner.getCurrentTest();
    if (current) (current.meta.learned ??= []).push(fact);
    if (this.file !== undefined) appendLine(this.file, `${JSON.stringify(fact)}\n`);
    return fact;
  }

  #keep(fact: LearnedFact): void {
    this.#known.set(fact.fact, fact);
  }

  #read(): LearnedFact[] {
    if (this.file === undefined) return [];
    const lines = completeLinesFrom(this.file, this.#offset);
    this.#offset += lines.length;
    return lines
      .toString('utf8')
      .split('\n')
      .flatMap((line) => {
        const fact = parsed(line);
        return fact ? [fact] : [];
      });
  }
}

/** Why a test that needs what `fact` rules out ends now: what it needed, the fact, and who learned it. */
export function becauseOf(fact: LearnedFact, needed: string): string {
  return `${needed}: ${fact.statement} (${fact.seen}), as "${fact.test}" learned earlier in this run`;
}

let facts: RunFacts | undefined;

/** The run's facts in this worker, through the file the run's main process provides. */
export function runFacts(): RunFacts {
  facts ??= new RunFacts(providedFile());
  return facts;
}

function providedFile(): string | undefined {
  try {
    return inject('runFactsFile');
  } catch {
    // Outside a vitest worker (a script): this process's memory only.
    return undefined;
  }
}

function runningTestName(): string {
  const test = TestRunner.getCurrentTest();
  return test?.fullTestName ?? test?.name ?? '(outside a test)';
}

function clipped(text: string): string {
  return text.length <= maxSeenChars ? text : `${text.slice(0, maxSeenChars - 1)}…`;
}

/**
 * Appends `line` in one write to a file opened for appending, so lines of several workers never interleave.
 * A file that cannot be written leaves the fact with this worker only: it never fails the test that learned it.
 */
function appendLine(file: string, line: string): void {
  let fd: number;
  try {
    fd = openSync(file, 'a');
  } catch {
    return;
  }
  try {
    writeSync(fd, line);
  } catch {
    // As above: the other workers do not learn it from this one.
  } finally {
    closeSync(fd);
  }
}

/**
 * The complete lines of `file` from byte `offset` on, within its first `maxFileBytes`; nothing when it is not there
 * yet or has nothing new (a line still being written is left for the next read).
 */
function completeLinesFrom(file: string, offset: number): Buffer {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch {
    return Buffer.alloc(0);
  }
  try {
    const length = Math.min(fstatSync(fd).size, maxFileBytes) - offset;
    if (length <= 0) return Buffer.alloc(0);
    const buffer = Buffer.alloc(length);
    const n = readSync(fd, buffer, 0, length, offset);
    return buffer.subarray(0, buffer.lastIndexOf(0x0a, n - 1) + 1);
  } finally {
    closeSync(fd);
  }
}

function parsed(line: string): LearnedFact | undefined {
  try {
    const v = JSON.parse(line) as Partial<LearnedFact>;
    if (typeof v.fact !== 'string' || !(v.fact in factStatements)) return undefined;
    if (typeof v.seen !== 'string' || typeof v.test !== 'string') return undefined;
    return { fact: v.fact, statement: factStatements[v.fact], seen: v.seen, test: v.test };
  } catch {
    // A line cut short (a worker stopped mid-write) is not a fact.
    return undefined;
  }
}
