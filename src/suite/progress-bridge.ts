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
  const off = events.on('wait', (event: ProgressEventMap['wait']) => {
    const test = getCurrentTest();
    // A wait outside a test (in a hook) has nothing to hang on; the line simply shows no countdown.
    if (test === undefined) return;
    recordArtifact(test, { type: waitArtifactType, bucket: event.bucket, ms: event.ms } satisfies WaitArtifact).catch(
      () => undefined,
    );
  });
  installed = () => {
    off();
    installed = undefined;
  };
  return installed;
}
