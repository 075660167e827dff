/**
 * A tiny event hook between the suite and the progress line: the suite says when it waits, on what and for
 * how long at most (`progressEvents.emit('wait', { what: 'the starts rate limit', ms, exact: true })`: a rate
 * limit's window, a try-on polled until it leaves pending, a held sync answer, a Retry-After), and when that
 * wait is over (`'waited'`); the progress reporter says so at least every few seconds. Only
 * types come from vitest, so both sides can load it. In a vitest run the suite's worker also calls
 * `forwardProgressEvents()` (progress-bridge.ts) to send each event to the main process's reporter as a
 * test artifact of type {@link waitArtifactType}.
 */
import type { TestArtifactBase } from 'vitest';

export interface ProgressEventMap {
  /**
   * The run waits for `what` ("the starts rate limit"), `ms` more at most; exactly `ms` when `exact` (a sleep),
   * else until an answer or a state comes (a poll, a held request).
   */
  readonly wait: { readonly what: string; readonly ms: number; readonly exact?: boolean };
  /** The wait for `what` is over. */
  readonly waited: { readonly what: string };
}

export type ProgressEventName = keyof ProgressEventMap;

type Listener<K extends ProgressEventName> = (event: ProgressEventMap[K]) => void;

/** The artifact type that carries a `wait` event from a vitest worker to the reporter. */
export const waitArtifactType = 'tryon-conformance:wait';

/** A `wait` event (or, with `ended`, a `waited` one) on its way from a vitest worker to the reporter. */
export interface WaitArtifact extends TestArtifactBase {
  readonly type: typeof waitArtifactType;
  readonly what: string;
  readonly ms: number;
  readonly exact?: boolean;
  readonly ended?: boolean;
}

declare module 'vitest' {
  interface TestArtifactRegistry {
    'tryon-conformance:wait': WaitArtifact;
  }
}

export class ProgressEvents {
  readonly #listeners = new Map<ProgressEventName, Set<(event: never) => void>>();

  /** Subscribes; returns the unsubscribe function. */
  on<K extends ProgressEventName>(name: K, listener: Listener<K>): () => void {
    let set = this.#listeners.get(name);
    if (set === undefined) {
      set = new Set();
      this.#listeners.set(name, set);
    }
    set.add(listener);
    return () => set.delete(listener);
  }

  /**
   * Tells every listener; a listener that throws never reaches the caller (the pacer must not fail for a
   * progress line).
   */
  emit<K extends ProgressEventName>(name: K, event: ProgressEventMap[K]): void {
    for (const listener of this.#listeners.get(name) ?? []) {
      try {
        (listener as Listener<K>)(event);
      } catch {
        // progress is best effort
      }
    }
  }
}

/** The process-wide hook. */
export const progressEvents = new ProgressEvents();
