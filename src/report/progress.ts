/**
 * The progress of a run, as a vitest reporter. On a terminal: one live status line (tests done of
 * total, the requirement under test, credits against the budget, a countdown while the pacer waits
 * on a rate limit), with failures printed above it. In CI or a pipe: one plain line per finished
 * test (`✓ name [IDS]`, `✗ …`, `↓ … (reason)`).
 */
import type { TaskMeta, TestArtifact } from 'vitest';
import type { Reporter } from 'vitest/node';
import { formatDuration } from './format.ts';
import type { TestResultLike } from './model.ts';
import { progressEvents, waitArtifactType, type ProgressEventMap, type ProgressEvents } from './progress-events.ts';

export interface ProgressOptions {
  /** One live line (a TTY outside CI) or plain lines; the caller decides, e.g. with {@link liveProgress}. */
  readonly live: boolean;
  /** Where the output goes (default: process.stdout). */
  readonly write?: (text: string) => void;
  /** Terminal width, read at each redraw (default: process.stdout.columns, else 100). */
  readonly columns?: () => number;
  /** The run's credit budget, shown as "credits ≤ spent/budget". */
  readonly creditBudget?: number;
  /** Credits actually spent, when the caller can know; else the declared cost of finished tests (an upper bound). */
  readonly creditsSpent?: () => number;
  /** The hook the pacer emits on, when it runs in this process (default: the process-wide one). */
  readonly events?: ProgressEvents;
  readonly now?: () => number;
  /** How often the countdown redraws (default 1000 ms). */
  readonly tickMs?: number;
}

/** The TTY/CI decision, for the caller to pass as `live`: a terminal, and not CI. */
export function liveProgress(stdout: { readonly isTTY?: boolean }, env: Readonly<Record<string, string | undefined>>): boolean {
  const ci = env.CI !== undefined && env.CI !== '' && env.CI !== '0' && env.CI.toLowerCase() !== 'false';
  return stdout.isTTY === true && !ci;
}

/** The part of vitest's TestCase the progress reads. */
export interface ProgressTest {
  readonly fullName: string;
  meta(): TaskMeta;
  result(): TestResultLike;
}

export interface ProgressModule {
  readonly children: { allTests(): Iterable<unknown> };
}

type Hooks = Pick<Reporter, 'onTestRunStart' | 'onTestModuleCollected' | 'onTestCaseReady' | 'onTestCaseResult' | 'onTestCaseArtifactRecord' | 'onTestRunEnd'>;

const clearLine = '\r\x1b[2K';

export class ProgressReporter implements Hooks {
  readonly #o: ProgressOptions;
  readonly #write: (text: string) => void;
  readonly #now: () => number;
  #total = 0;
  #files = 0;
  #filesCollected = 0;
  #passed = 0;
  #failed = 0;
  #skipped = 0;
  #declaredCredits = 0;
  #current: ProgressTest | undefined;
  #wait: { bucket: string; until: number } | undefined;
  #timer: ReturnType<typeof setInterval> | undefined;
  #startedAt = 0;
  #lineShown = false;
  #unsubscribe: (() => void) | undefined;

  constructor(options: ProgressOptions) {
    this.#o = options;
    this.#write = options.write ?? ((text) => void process.stdout.write(text));
    this.#now = options.now ?? Date.now;
  }

  onTestRunStart(specifications: ReadonlyArray<unknown> = []): void {
    this.#total = this.#passed = this.#failed = this.#skipped = this.#declaredCredits = this.#filesCollected = 0;
    this.#files = specifications.length;
    this.#current = this.#wait = undefined;
    this.#startedAt = this.#now();
    this.#unsubscribe?.();
    this.#unsubscribe = (this.#o.events ?? progressEvents).on('wait', (e) => this.#onWait(e));
  }

  onTestModuleCollected(module: ProgressModule): void {
    this.#total += [...module.children.allTests()].length;
    this.#filesCollected++;
    this.#render();
  }

  onTestCaseReady(test: ProgressTest): void {
    this.#current = test;
    this.#render();
  }

  onTestCaseResult(test: ProgressTest): void {
    const result = test.result();
    const meta = test.meta();
    if (result.state === 'passed') this.#passed++;
    else if (result.state === 'failed') this.#failed++;
    else this.#skipped++;
    if (result.state === 'passed' || result.state === 'failed') this.#declaredCredits += meta.cost?.credits ?? 0;
    if (this.#current === test) this.#current = undefined;
    const line = finishedLine(test, result, meta);
    if (!this.#o.live) this.#write(`${line}\n`);
    else if (result.state === 'failed') this.#print(line);
    this.#render();
  }

  onTestCaseArtifactRecord(_test: unknown, artifact: TestArtifact): void {
    if (artifact.type === waitArtifactType) this.#onWait(artifact);
  }

  onTestRunEnd(_modules: ReadonlyArray<unknown>, unhandledErrors: ReadonlyArray<unknown> = []): void {
    this.#stopTimer();
    this.#unsubscribe?.();
    this.#unsubscribe = undefined;
    this.#wait = this.#current = undefined;
    if (this.#lineShown) this.#write(clearLine);
    this.#lineShown = false;
    const done = this.#passed + this.#failed + this.#skipped;
    const parts = [
      `Tests: ${done} (${this.#passed} passed, ${this.#failed} failed, ${this.#skipped} skipped)`,
      this.#credits(),
      formatDuration(this.#now() - this.#startedAt),
      ...(unhandledErrors.length > 0 ? [`${unhandledErrors.length} unhandled error${unhandledErrors.length === 1 ? '' : 's'}`] : []),
    ];
    this.#write(`${parts.join(' · ')}\n`);
  }

  #onWait(event: ProgressEventMap['wait']): void {
    const until = this.#now() + event.ms;
    this.#wait = { bucket: event.bucket, until };
    if (!this.#o.live) {
      // A plain line only for waits worth mentioning; the pacer also reports short ones.
      if (event.ms >= 5000) this.#write(`… waiting ${Math.ceil(event.ms / 1000)} s for the ${event.bucket} rate limit\n`);
      return;
    }
    if (this.#timer === undefined) {
      this.#timer = setInterval(() => this.#render(), this.#o.tickMs ?? 1000);
      this.#timer.unref?.();
    }
    this.#render();
  }

  #stopTimer(): void {
    if (this.#timer !== undefined) clearInterval(this.#timer);
    this.#timer = undefined;
  }

  #credits(): string {
    const budget = this.#o.creditBudget === undefined ? '' : ` of ${this.#o.creditBudget}`;
    return this.#o.creditsSpent ? `credits ${this.#o.creditsSpent()}${budget}` : `credits ≤ ${this.#declaredCredits}${budget}`;
  }

  /** The live status line, cut to the terminal width so `\r` can always redraw it. */
  statusLine(): string {
    const done = this.#passed + this.#failed + this.#skipped;
    // Files are collected as they start, so the total grows until the last file: "+" says so.
    const more = this.#filesCollected < this.#files ? '+' : '';
    const files = this.#files > 1 ? ` · file ${Math.max(1, this.#filesCollected)}/${this.#files}` : '';
    const parts = [`${done}/${Math.max(this.#total, done)}${more} tests${files}`, `✓ ${this.#passed} ✗ ${this.#failed} ↓ ${this.#skipped}`, this.#credits()];
    if (this.#wait !== undefined) {
      const left = this.#wait.until - this.#now();
      if (left > 0) parts.push(`waiting ${Math.ceil(left / 1000)} s for the ${this.#wait.bucket} limit`);
      else {
        this.#wait = undefined;
        this.#stopTimer();
      }
    }
    if (this.#current !== undefined) {
      const ids = this.#current.meta().requirements ?? [];
      if (ids[0] !== undefined) parts.push(`${ids[0]}${ids.length > 1 ? ` +${ids.length - 1}` : ''}`);
      parts.push(this.#current.fullName);
    }
    const width = Math.max(20, (this.#o.columns?.() || process.stdout.columns || 100) - 1);
    const line = parts.join(' │ ');
    const chars = [...line];
    return chars.length <= width ? line : `${chars.slice(0, width - 1).join('')}…`;
  }

  #render(): void {
    if (!this.#o.live) return;
    this.#write(`${clearLine}${this.statusLine()}`);
    this.#lineShown = true;
  }

  /** A line that stays, above the status line. */
  #print(text: string): void {
    this.#write(`${this.#lineShown ? clearLine : ''}${text}\n`);
    this.#lineShown = false;
  }
}

function finishedLine(test: ProgressTest, result: TestResultLike, meta: TaskMeta): string {
  const ids = meta.requirements ?? [];
  const tag = ids.length === 0 ? '' : ` [${ids.join(', ')}]`;
  if (result.state === 'passed') return `✓ ${test.fullName}${tag}`;
  if (result.state === 'failed') {
    const first = result.errors?.[0];
    const cause = (first as { cause?: { message?: unknown } } | undefined)?.cause?.message;
    const message = typeof cause === 'string' ? cause : (first?.message ?? '');
    const line = message.split('\n').find((l) => l.trim() !== '') ?? '';
    return `✗ ${test.fullName}${tag}${line === '' ? '' : `\n    ${line.trim()}`}`;
  }
  const reason = meta.skipReason ?? result.note;
  return `↓ ${test.fullName}${tag}${reason === undefined || reason === '' ? '' : ` (${reason})`}`;
}
