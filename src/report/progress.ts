/**
 * The progress of a run, as a vitest reporter. On a terminal: one live status line (tests done of
 * total, the requirement under test, credits against the budget, what the run waits for), redrawn every
 * second, with failures and inconclusive tests printed above it. In CI or a pipe: one plain line per
 * finished test (`✓ name [IDS]`, `✗ …` with the failed requirement, `? … (inconclusive: reason)`,
 * `↓ … (reason)`), judged per requirement as the report does (verdict.ts), and whenever nothing was printed
 * for a few seconds a heartbeat: what the run waits for, how long so far, and how long it may still take.
 */
import type { TaskMeta, TestArtifact } from 'vitest';
import type { Reporter } from 'vitest/node';
import { terminalLine, terminalText } from '../shared/escape.ts';
import { assertionSentence } from '../shared/assertion-sentence.ts';
import { failureOfFinding, failureOfRule, headline } from './failures.ts';
import { formatDuration } from './format.ts';
import type { TestResultLike } from './model.ts';
import { progressEvents, waitArtifactType, type ProgressEvents } from '../shared/progress-events.ts';
import { WaitWatch, type RunningTest, type WaitNotice } from './progress-waits.ts';
import type { TestOutcome } from './types.ts';
import { testOutcome } from './verdict.ts';

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
  /** How often the live line redraws, and the plain output checks for silence (default 1000 ms). */
  readonly tickMs?: number;
  /** Plain output: after this long without a line, a heartbeat line (default 8000 ms: never 10 s silent). */
  readonly heartbeatMs?: number;
}

/** The TTY/CI decision, for the caller to pass as `live`: a terminal, and not CI. */
export function liveProgress(
  stdout: { readonly isTTY?: boolean },
  env: Readonly<Record<string, string | undefined>>,
): boolean {
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

type Hooks = Pick<
  Reporter,
  | 'onTestRunStart'
  | 'onTestModuleCollected'
  | 'onTestCaseReady'
  | 'onTestCaseResult'
  | 'onTestCaseArtifactRecord'
  | 'onTestRunEnd'
>;

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
  #inconclusive = 0;
  #skipped = 0;
  #creditsUsed: number | undefined;
  #declaredCredits = 0;
  #current: ProgressTest | undefined;
  #running: RunningTest | undefined;
  readonly #waits = new WaitWatch();
  #lastLineAt = 0;
  #timer: ReturnType<typeof setInterval> | undefined;
  #startedAt = 0;
  #lineShown = false;
  #unsubscribe: (() => void) | undefined;

  constructor(options: ProgressOptions) {
    this.#o = options;
    const write = options.write ?? ((text) => void process.stdout.write(text));
    this.#write = (text) => {
      this.#lastLineAt = this.#now();
      write(text);
    };
    this.#now = options.now ?? Date.now;
  }

  onTestRunStart(specifications: ReadonlyArray<unknown> = []): void {
    this.#total =
      this.#passed =
      this.#failed =
      this.#inconclusive =
      this.#skipped =
      this.#declaredCredits =
      this.#filesCollected =
        0;
    this.#files = specifications.length;
    this.#current = this.#running = undefined;
    this.#waits.clear();
    this.#startedAt = this.#lastLineAt = this.#now();
    this.#unsubscribe?.();
    const events = this.#o.events ?? progressEvents;
    const offWait = events.on('wait', (e) => this.#onWait(e));
    const offWaited = events.on('waited', (e) => this.#waits.end(e.what));
    this.#unsubscribe = () => {
      offWait();
      offWaited();
    };
    this.#stopTimer();
    this.#timer = setInterval(() => this.#tick(), this.#o.tickMs ?? 1000);
    this.#timer.unref?.();
  }

  onTestModuleCollected(module: ProgressModule): void {
    this.#total += [...module.children.allTests()].length;
    this.#filesCollected++;
    this.#render();
  }

  onTestCaseReady(test: ProgressTest): void {
    this.#current = test;
    const limitMs = test.meta().allowanceMs;
    this.#running = { name: test.fullName, since: this.#now(), ...(limitMs !== undefined && { limitMs }) };
    this.#render();
  }

  onTestCaseResult(test: ProgressTest): void {
    const result = test.result();
    const meta = test.meta();
    const outcome = outcomeOfTest(result, meta);
    if (outcome === 'pass') this.#passed++;
    else if (outcome === 'fail') this.#failed++;
    else if (outcome === 'inconclusive') this.#inconclusive++;
    else this.#skipped++;
    if (result.state === 'passed' || result.state === 'failed') this.#declaredCredits += meta.cost?.credits ?? 0;
    // The run's own count after the test settled (spent or in use, as the budget counts it), when the suite gave one.
    if (meta.creditsUsed !== undefined) this.#creditsUsed = meta.creditsUsed;
    if (this.#current === test) this.#current = this.#running = undefined;
    this.#waits.clear();
    // Names, reasons and findings carry what the target sent: shown, never obeyed by the terminal.
    const line = terminalText(finishedLine(test, result, meta, outcome));
    if (!this.#o.live) this.#write(`${line}\n`);
    else if (outcome === 'fail' || outcome === 'inconclusive') this.#print(line);
    this.#render();
  }

  onTestCaseArtifactRecord(_test: unknown, artifact: TestArtifact): void {
    if (artifact.type !== waitArtifactType) return;
    if (artifact.ended === true) this.#waits.end(artifact.what);
    else this.#onWait(artifact);
  }

  onTestRunEnd(_modules: ReadonlyArray<unknown>, unhandledErrors: ReadonlyArray<unknown> = []): void {
    this.#stopTimer();
    this.#unsubscribe?.();
    this.#unsubscribe = undefined;
    this.#current = this.#running = undefined;
    this.#waits.clear();
    if (this.#lineShown) this.#write(clearLine);
    this.#lineShown = false;
    const done = this.#passed + this.#failed + this.#inconclusive + this.#skipped;
    const inconclusive = this.#inconclusive > 0 ? `${this.#inconclusive} inconclusive, ` : '';
    const parts = [
      `Tests: ${done} (${this.#passed} passed, ${this.#failed} failed, ${inconclusive}${this.#skipped} skipped)`,
      this.#credits(),
      formatDuration(this.#now() - this.#startedAt),
      ...(unhandledErrors.length > 0
        ? [`${unhandledErrors.length} unhandled error${unhandledErrors.length === 1 ? '' : 's'}`]
        : []),
    ];
    this.#write(`${parts.join(' · ')}\n`);
  }

  #onWait(event: WaitNotice): void {
    const line = this.#waits.begin(event, this.#now());
    if (this.#o.live) this.#render();
    else if (line !== undefined) this.#write(`${terminalLine(line)}\n`);
  }

  /** Every tick: the live line redraws; plain output gets a heartbeat once it has been quiet too long. */
  #tick(): void {
    if (this.#o.live) return this.#render();
    if (this.#now() - this.#lastLineAt < (this.#o.heartbeatMs ?? 8_000)) return;
    const done = this.#passed + this.#failed + this.#inconclusive + this.#skipped;
    const line = this.#waits.heartbeat(this.#now(), this.#running, `${done}/${Math.max(this.#total, done)} tests done`);
    this.#write(`${terminalLine(line)}\n`);
  }

  #stopTimer(): void {
    if (this.#timer !== undefined) clearInterval(this.#timer);
    this.#timer = undefined;
  }

  #credits(): string {
    const budget = this.#o.creditBudget === undefined ? '' : ` of ${this.#o.creditBudget}`;
    if (this.#o.creditsSpent) return `credits ${this.#o.creditsSpent()}${budget}`;
    return this.#creditsUsed !== undefined
      ? `credits ${this.#creditsUsed}${budget}`
      : `credits ≤ ${this.#declaredCredits}${budget}`;
  }

  /** The live status line, cut to the terminal width so `\r` can always redraw it. */
  statusLine(): string {
    const done = this.#passed + this.#failed + this.#inconclusive + this.#skipped;
    // Files are collected as they start, so the total grows until the last file: "+" says so.
    const more = this.#filesCollected < this.#files ? '+' : '';
    const files = this.#files > 1 ? ` · file ${Math.max(1, this.#filesCollected)}/${this.#files}` : '';
    const counts = `✓ ${this.#passed} ✗ ${this.#failed}${this.#inconclusive > 0 ? ` ? ${this.#inconclusive}` : ''} ↓ ${this.#skipped}`;
    const parts = [`${done}/${Math.max(this.#total, done)}${more} tests${files}`, counts, this.#credits()];
    const waiting = this.#waits.countdown(this.#now());
    if (waiting !== undefined) parts.push(waiting);
    if (this.#current !== undefined) {
      const ids = this.#current.meta().requirements ?? [];
      if (ids[0] !== undefined) parts.push(`${ids[0]}${ids.length > 1 ? ` +${ids.length - 1}` : ''}`);
      parts.push(this.#current.fullName);
    }
    const width = Math.max(20, (this.#o.columns?.() || process.stdout.columns || 100) - 1);
    const line = terminalLine(parts.join(' │ '));
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

/** The test as a whole, judged per requirement as the report does. */
function outcomeOfTest(result: TestResultLike, meta: TaskMeta): TestOutcome {
  const state = result.state === 'passed' || result.state === 'failed' ? result.state : 'skipped';
  return testOutcome({ entry: { requirements: meta.requirements ?? [], state }, meta, errors: result.errors ?? [] })
    .outcome;
}

function finishedLine(test: ProgressTest, result: TestResultLike, meta: TaskMeta, outcome: TestOutcome): string {
  const ids = meta.requirements ?? [];
  const tag = ids.length === 0 ? '' : ` [${ids.join(', ')}]`;
  if (outcome === 'pass') return `✓ ${test.fullName}${tag}`;
  if (outcome === 'skip') {
    const reason = meta.skipReason ?? result.note;
    return `↓ ${test.fullName}${tag}${reason === undefined || reason === '' ? '' : ` (${reason})`}`;
  }
  if (outcome === 'inconclusive') {
    // The error's own text already begins "inconclusive: " (conformance.ts): said once here.
    const said = firstLine(result.errors?.[0]?.message ?? '').replace(/^\[[A-Z0-9, -]+\] /, '');
    const reason = (meta.inconclusive ?? said).replace(/^(?:inconclusive: )+/, '');
    return `? ${test.fullName}${tag} (inconclusive: ${reason})`;
  }
  const broken = meta.broken ?? [];
  if (broken.length > 0)
    return `✗ ${test.fullName}${tag}${broken.map((b) => `\n    ${b.requirement}: ${firstLine(failureOfRule(b).message)}`).join('')}`;
  const findings = [
    ...new Set(
      (meta.findings ?? [])
        .filter((f) => f.severity === 'error')
        .map((f) => `${f.requirement}: ${headline(failureOfFinding(f, 1))}`),
    ),
  ];
  if (findings.length > 0) return `✗ ${test.fullName}${tag}${findings.map((f) => `\n    ${f}`).join('')}`;
  const first = result.errors?.[0];
  const cause = (first as { cause?: { message?: unknown } } | undefined)?.cause?.message;
  const line = assertionSentence(firstLine(typeof cause === 'string' ? cause : (first?.message ?? '')));
  return `✗ ${test.fullName}${tag}${line === '' ? '' : `\n    ${line}`}`;
}

function firstLine(message: string): string {
  return (message.split('\n').find((l) => l.trim() !== '') ?? '').trim();
}
