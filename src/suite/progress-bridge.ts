/**
 * Worker side of the progress line: forwards `progressEvents` of the suite's worker to the
 * reporter in vitest's main process, as an artifact on the test that is running (vitest calls the
 * reporter's `onTestCaseArtifactRecord` as soon as it is recorded). Call once, in the worker.
 */
import { recordArtifact } from 'vitest';
import { getCurrentTest } from 'vitest/suite';
import {
  progressEvents,
  waitArtifactType,
  type ProgressEventMap,
  type ProgressEvents,
  type WaitArtifact,
} from '../shared/progress-events.ts';

let installed: (() => void) | undefined;

/** Starts forwarding (once per worker; later calls do nothing). Returns the function that stops it. */
export function forwardProgressEvents(events: ProgressEvents = progressEvents): () => void {
  if (installed !== undefined) return installed;
  const send = (artifact: WaitArtifact): void => {
    const test = getCurrentTest();
    // A wait outside a test (in a hook) has nothing to hang on; the reporter's own heartbeat covers it.
    if (test === undefined) return;
    recordArtifact(test, artifact).catch(() => undefined);
  };
  const offWait = events.on('wait', (e: ProgressEventMap['wait']) =>
    send({ type: waitArtifactType, what: e.what, ms: e.ms, ...(e.exact === true && { exact: true }) }),
  );
  const offWaited = events.on('waited', (e: ProgressEventMap['waited']) =>
    send({ type: waitArtifactType, what: e.what, ms: 0, ended: true }),
  );
  installed = () => {
    offWait();
    offWaited();
    installed = undefined;
  };
  return installed;
}
