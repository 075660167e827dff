/**
 * The run's stop, one per process (Ctrl-C, SIGTERM, the wall-time bound): once stopped, every `send` of
 * the suite's client refuses at once and the requests in flight are aborted, so nothing more
 * reaches the target after the user said stop. The CLI stops it in the main process; the suite's
 * worker stops its own (src/suite/worker-stop.ts).
 */

/** Why the run stopped, as the refused and aborted exchanges say it. */
export class RunStopped extends Error {
  override readonly name = 'RunStopped';
}

const controller = new AbortController();

/** Aborted once the run stops; its reason is a RunStopped. */
export const runStopSignal: AbortSignal = controller.signal;

/** Stops every request of this process, for good. The first reason wins. */
export function stopRequests(reason: string): void {
  if (!controller.signal.aborted) controller.abort(new RunStopped(reason));
}

/** The reason the run stopped, or undefined while it runs. */
export function stoppedBecause(signal: AbortSignal = runStopSignal): string | undefined {
  if (!signal.aborted) return undefined;
  const reason: unknown = signal.reason;
  return reason instanceof Error ? reason.message : String(reason);
}
