/**
 * How a stop of the run reaches the suite's worker process: the CLI cancels the run (`cancelCurrentRun`),
 * which aborts the running test's signal here, and a terminal's Ctrl-C reaches this process too. Either
 * stops every request of the worker at once (src/client/run-stop.ts); the worker stays up, so the CLI still
 * gets the verdicts so far. A worker whose main process is gone stops its requests and exits.
 */
import { isMainThread } from 'node:worker_threads';
import { runStopSignal, stopRequests, stoppedBecause } from '../client/run-stop.ts';

let watching = false;

/** Once per worker: a Ctrl-C stops every request (not the worker); a lost main process ends it. */
export function stopOnSignals(): void {
  if (watching || !isMainThread || process.send === undefined) return;
  watching = true;
  // SIGTERM is left alone: vitest ends its workers with it, and the CLI stops them by cancelling.
  process.on('SIGINT', () => stopRequests('stopped by SIGINT (Ctrl-C)'));
  process.once('disconnect', () => {
    stopRequests('the run was stopped');
    process.exit(130);
  });
}

/**
 * A cancelled run aborts the running test's `signal` with vitest's TestRunAbortError: stop every
 * request with it, and tell `onStop` (the test, to say why it has no verdict) before vitest reports it.
 */
export function stopOnCancel(signal: AbortSignal, onStop: (reason: string) => void = () => undefined): void {
  const onAbort = (): void => {
    const reason = signal.reason as { name?: unknown; reason?: unknown } | undefined;
    // A test's own timeout aborts it too; only a cancelled run stops the others.
    if (reason?.name !== 'TestRunAbortError') return;
    stopRequests(typeof reason.reason === 'string' ? reason.reason : 'the run was cancelled');
    onStop(runStopped() ?? 'the run was cancelled');
  };
  if (signal.aborted) onAbort();
  else signal.addEventListener('abort', onAbort, { once: true });
}

/** Why the run stopped, once it has: a test that was running then has no verdict of its own. */
export function runStopped(): string | undefined {
  return stoppedBecause(runStopSignal);
}
