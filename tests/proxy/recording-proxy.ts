/**
 * The judging proxy in front of `upstream`, recording its traffic as NDJSON and HAR into `files`:
 * what a test of live against offline judgement starts with.
 */
import { liveJudgement } from '../../src/proxy/live-judgement.ts';
import { createProxy } from '../../src/proxy/proxy-app.ts';
import { openRecorder } from '../../src/proxy/recorder.ts';

export interface RecordingProxy {
  readonly origin: string;
  readonly live: ReturnType<typeof liveJudgement>;
  /** Closes the proxy, then both recordings. */
  close(): Promise<void>;
}

/** Starts the proxy on an ephemeral loopback port. */
export async function startRecordingProxy(
  upstream: string,
  files: { readonly ndjson: string; readonly har: string },
): Promise<RecordingProxy> {
  const live = liveJudgement({ upstream });
  const recorders = (['ndjson', 'har'] as const).map((format) =>
    openRecorder({ path: files[format], format, version: '0', warn: () => {} }),
  );
  const proxy = await createProxy({ upstream, token: 'proxy-token', observers: [...live.observers, ...recorders] });
  const origin = await proxy.listen('127.0.0.1', 0);
  return {
    origin,
    live,
    async close() {
      await proxy.close();
      for (const recorder of recorders) await recorder.close();
    },
  };
}
