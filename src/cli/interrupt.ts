/**
 * Stopping a run before its end: on SIGINT, SIGTERM or the run's wall-time bound, every request of the
 * main process stops (src/client/run-stop.ts) and the suite's run is cancelled, which stops the worker's
 * requests too (src/suite/worker-stop.ts); the CLI then writes the partial report, marked as interrupted.
 * A second signal exits at once.
 */
import { stopRequests } from '../client/run-stop.ts';
import { printErr } from './print.ts';

/** Why and when a run was stopped before its end; goes into the report's run information. */
export interface Interruption {
  /** The signal that stopped it; absent when the wall-time bound did. */
  readonly signal?: 'SIGINT' | 'SIGTERM';
  /** In words: `stopped by SIGINT (Ctrl-C)`, `the run's wall-time bound of 30 min was reached`. */
  readonly reason: string;
  readonly at: Date;
}

/**
 * The exit status of an interrupted run: 130 for any signal, SIGTERM included, so scripts test for
 * "interrupted" once; 2 for the wall-time bound, a limit of the toolkit's own and not a verdict on the target.
 */
export function exitStatusOfInterruption(interruption: Interruption): number {
  return interruption.signal === undefined ? 2 : 130;
}

const signals = ['SIGINT', 'SIGTERM'] as const;
const signalWords: Readonly<Record<(typeof signals)[number], string>> = {
  SIGINT: 'stopped by SIGINT (Ctrl-C)',
  SIGTERM: 'stopped by SIGTERM',
};

/** One run's stop: signals and the wall-time bound in, the suite's cancel out. */
export class RunStop {
  #stopped: Interruption | undefined;
  #cancel: ((reason: string) => unknown) | undefined;
  #timer: NodeJS.Timeout | undefined;
  readonly #listeners = new Map<string, () => void>();
  readonly #log: (line: string) => void;

  constructor(log: (line: string) => void = (line) => printErr(`${line}\n`)) {
    this.#log = log;
  }

  /** Why the run was stopped, or undefined while it runs. */
  get stopped(): Interruption | undefined {
    return this.#stopped;
  }

  /** Stops the run, once: every request of this process at once, and the suite through its cancel. */
  stop(reason: string, signal?: Interruption['signal']): void {
    if (this.#stopped !== undefined) return;
    this.#stopped = { reason, at: new Date(), ...(signal !== undefined && { signal }) };
    stopRequests(reason);
    this.#log(
      `\n${reason}: stopping every request; writing the partial report (${signal === undefined ? '' : 'press Ctrl-C again to exit at once; '}exit ${exitStatusOfInterruption(this.#stopped)})`,
    );
    void this.#cancel?.(reason);
  }

  /** The suite run to cancel on a stop; cancelled at once when the run is already stopped. Returns the detach. */
  attach(cancel: (reason: string) => unknown): () => void {
    this.#cancel = cancel;
    if (this.#stopped !== undefined) void cancel(this.#stopped.reason);
    return () => {
      if (this.#cancel === cancel) this.#cancel = undefined;
    };
  }

  /** Stops on SIGINT and SIGTERM; a second one exits at once with 130. */
  listen(): this {
    for (const signal of signals) {
      if (this.#listeners.has(signal)) continue;
      const onSignal = (): void => {
        if (this.#stopped === undefined) return this.stop(signalWords[signal], signal);
        this.#log(`${signal} again: exiting at once, without the report`);
        process.exit(130);
      };
      this.#listeners.set(signal, onSignal);
      process.on(signal, onSignal);
    }
    return this;
  }

  /** Stops the run when `ms` have passed since now: the run's wall-time bound (exit 2). */
  boundWallTime(ms: number): this {
    clearTimeout(this.#timer);
    const minutes = Math.round((ms / 60_000) * 10) / 10;
    this.#timer = setTimeout(() => this.stop(`the run's wall-time bound of ${minutes} min was reached`), ms);
    this.#timer.unref();
    return this;
  }

  /** Removes the signal listeners and the bound's timer (the stop itself stands). */
  dispose(): void {
    clearTimeout(this.#timer);
    for (const [signal, listener] of this.#listeners) process.off(signal, listener);
    this.#listeners.clear();
  }
}

/**
 * An error of vitest's pool that the stop itself caused: a Ctrl-C reaches the worker too, and one
 * that gets it before the suite has loaded (no listener yet) dies of it. Not an error of the run.
 */
export function endedByTheStop(message: string): boolean {
  return /^\[vitest-pool\]: (Worker \w+ emitted error\.|Cannot run tasks while pool is cancelling)/.test(message);
}
