/**
 * Background generation (spec: States and transitions). A try-on waits its engine latency off the
 * worker pool, then takes one of `concurrency` slots for the CPU-bound compositing, then moves
 * pending → success (result stored for 24 h) or pending → failed (credit refunded) in one store
 * transaction (one store call). Terminal states never change: the store only updates rows that are still pending.
 */
import type { ScenarioName } from '../../fixtures/scenarios.ts';
import type { Store } from '../store/store.ts';
import type { Clock } from './clock.ts';
import { DueLists } from './due-lists.ts';
import type { Engine } from './images/engine.ts';
import { newResultFile } from './ids.ts';

export interface GenerationQueueOptions {
  readonly store: Store;
  readonly engine: Engine;
  readonly clock: Clock;
  readonly concurrency: number;
  readonly resultTtlMs: number;
  /** Extra wait before a try-on is generated: the engine latency, longer for `slow-generation`. */
  readonly latencyFor: (scenario: ScenarioName | null) => number;
  readonly onFinished: (tryOnId: string) => void;
  readonly onError?: (error: unknown, tryOnId: string) => void;
}

const failureMessage = 'The try-on could not be generated. Your credit has been returned.';

/** Where a start hands its try-on: this process's queue, or a leased one shared by instances (server/cluster/). */
export interface TryOnQueue {
  /** Schedules a pending try-on. Safe to call again for the same id: a finished one is left alone. */
  enqueue(tryOnId: string, scenario: ScenarioName | null): void;
  /** Stops scheduling; try-ons not yet finished stay pending in the store. */
  close(): void;
}

export class GenerationQueue implements TryOnQueue {
  readonly #waiting: Array<() => void> = [];
  /** Try-ons waiting out their latency: one timer per latency, not one per try-on. */
  readonly #latency = new DueLists<string>((tryOnId) => void this.#run(tryOnId));
  #running = 0;
  #closed = false;

  constructor(private readonly o: GenerationQueueOptions) {}

  /** Schedules a pending try-on. Safe to call again for the same id: a finished one is left alone. */
  enqueue(tryOnId: string, scenario: ScenarioName | null): void {
    if (this.#closed) return;
    this.#latency.add(tryOnId, this.o.latencyFor(scenario));
  }

  /** Stops scheduling; try-ons not yet finished stay pending in the store and resume on restart. */
  close(): void {
    this.#closed = true;
    this.#latency.clear();
  }

  async #run(tryOnId: string): Promise<void> {
    await this.#slot();
    try {
      if (!this.#closed) await this.#generate(tryOnId);
    } catch (error) {
      this.o.onError?.(error, tryOnId);
      await this.#failAfterError(tryOnId);
    } finally {
      this.#running--;
      this.#waiting.shift()?.();
    }
  }

  /** Fails (and refunds) a try-on whose generation threw; if the store fails too, it stays pending for a restart. */
  async #failAfterError(tryOnId: string): Promise<void> {
    try {
      if (!this.#closed && (await this.o.store.finishFailure(tryOnId, failureMessage, this.o.clock.now())))
        this.o.onFinished(tryOnId);
    } catch (error) {
      this.o.onError?.(error, tryOnId);
    }
  }

  async #slot(): Promise<void> {
    if (this.#running < this.o.concurrency) {
      this.#running++;
      return;
    }
    await new Promise<void>((resolve) => this.#waiting.push(resolve));
    this.#running++;
  }

  async #generate(tryOnId: string): Promise<void> {
    const { store, clock } = this.o;
    const tryOn = await store.findTryOn(tryOnId);
    if (tryOn?.status !== 'pending' || this.#closed) return;
    const inputs = await store.inputsOf(tryOnId);
    const result = inputs
      ? await this.o.engine.generate({
          person: inputs.person,
          garment: inputs.garment,
          ...(tryOn.title !== null && { title: tryOn.title }),
          ...(tryOn.scenario !== null && { scenario: tryOn.scenario }),
        })
      : ({ ok: false, message: failureMessage } as const);
    if (this.#closed) return;
    const now = clock.now();
    const finished = await (result.ok
      ? store.finishSuccess(
          tryOnId,
          {
            file: newResultFile(result.format),
            format: result.format,
            bytes: result.image,
            expiresAt: now + this.o.resultTtlMs,
          },
          now,
        )
      : store.finishFailure(tryOnId, result.message, now));
    if (finished) this.o.onFinished(tryOnId);
  }
}
