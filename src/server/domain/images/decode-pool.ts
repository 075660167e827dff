/**
 * Image decoding off the main thread, bounded in time, where uploads never starve each other. A small pool
 * of worker threads (unlike the libuv pool, each can be terminated and has its own heap) decodes one image
 * each. Every job has a deadline: libvips stops itself, and a worker still silent at the deadline is
 * replaced. Jobs wait in one queue per account, taken round-robin; an account holds at most `size − 1`
 * workers, so another always finds one, and one with too many waiting gets `busy`.
 */
import { Worker } from 'node:worker_threads';

/** A decode that went through, or why not: the data is bad, it ran out of time, or the account's queue is full. */
export type DecodeOutcome =
  | { readonly ok: true }
  | { readonly ok: false; readonly kind: 'corrupt' | 'deadline' | 'busy'; readonly reason: string };

export interface DecodePoolOptions {
  readonly size: number;
  readonly deadlineMs: number;
  readonly queuePerOwner: number;
  readonly maxPixels: number;
}

interface Job {
  readonly id: number;
  readonly owner: string;
  readonly bytes: Uint8Array<ArrayBuffer>;
  readonly resolve: (outcome: DecodeOutcome) => void;
}

interface Slot {
  worker: Worker | undefined;
  /** Resolves once the worker has loaded sharp; a job's deadline starts only then. */
  ready: Promise<void> | undefined;
  job: Job | undefined;
  timer: NodeJS.Timeout | undefined;
}

interface WorkerAnswer {
  readonly id: number;
  readonly ok: boolean;
  readonly timedOut?: boolean;
  readonly reason?: string;
}

const workerUrl = new URL('./decode-worker.mjs', import.meta.url);

export class DecodePool {
  readonly #queues = new Map<string, Job[]>();
  readonly #running = new Map<string, number>();
  readonly #slots: Slot[];
  readonly #perOwner: number;
  #nextId = 0;
  #closed = false;

  constructor(private readonly o: DecodePoolOptions) {
    this.#slots = Array.from({ length: Math.max(1, o.size) }, () => ({
      worker: undefined,
      ready: undefined,
      job: undefined,
      timer: undefined,
    }));
    this.#perOwner = Math.max(1, this.#slots.length - 1);
  }

  /** Decodes every pixel of `bytes` for `owner` (an account id); never rejects. */
  decode(bytes: Buffer, owner: string): Promise<DecodeOutcome> {
    if (this.#closed) return Promise.resolve({ ok: false, kind: 'busy', reason: 'the server is shutting down' });
    const queue = this.#queues.get(owner) ?? [];
    if (queue.length >= this.o.queuePerOwner) {
      return Promise.resolve({
        ok: false,
        kind: 'busy',
        reason: `${queue.length} images of this account are already waiting to be decoded`,
      });
    }
    return new Promise((resolve) => {
      queue.push({ id: ++this.#nextId, owner, bytes: new Uint8Array(bytes), resolve });
      this.#queues.set(owner, queue);
      this.#pump();
    });
  }

  /**
   * Starts the first worker (loading sharp takes a second on a busy machine, which no upload should
   * wait for) and resolves when it is ready; with `all`, starts every worker and waits for all.
   * Otherwise the others start when two decodes first run at once, since each worker costs memory.
   */
  async warm(all = false): Promise<void> {
    if (this.#closed) return;
    const slots = all ? this.#slots : this.#slots.slice(0, 1);
    for (const slot of slots) slot.worker ??= this.#spawn(slot);
    await Promise.all(slots.map((slot) => slot.ready));
  }

  /** Stops every worker; jobs still waiting answer `busy`. */
  async close(): Promise<void> {
    this.#closed = true;
    for (const queue of this.#queues.values())
      for (const job of queue) job.resolve({ ok: false, kind: 'busy', reason: 'the server is shutting down' });
    this.#queues.clear();
    await Promise.all(
      this.#slots.map(async (slot) => {
        if (slot.timer) clearTimeout(slot.timer);
        slot.job?.resolve({ ok: false, kind: 'busy', reason: 'the server is shutting down' });
        const worker = slot.worker;
        slot.worker = undefined;
        slot.job = undefined;
        await worker?.terminate();
      }),
    );
  }

  /** Jobs waiting and running, per owner (for tests and figures). */
  stats(): { readonly waiting: number; readonly running: number } {
    let waiting = 0;
    for (const queue of this.#queues.values()) waiting += queue.length;
    return { waiting, running: this.#slots.filter((s) => s.job).length };
  }

  /** Workers started and not stopped (for tests and figures). */
  workers(): number {
    return this.#slots.filter((s) => s.worker).length;
  }

  #pump(): void {
    for (const slot of this.#slots) {
      if (slot.job || this.#closed) continue;
      const job = this.#take();
      if (!job) return;
      this.#start(slot, job);
    }
  }

  // Round-robin over owners, in the order they last got a worker; skips owners at their cap.
  #take(): Job | undefined {
    for (const [owner, queue] of this.#queues) {
      if ((this.#running.get(owner) ?? 0) >= this.#perOwner) continue;
      const job = queue.shift();
      this.#queues.delete(owner);
      if (queue.length > 0) this.#queues.set(owner, queue);
      if (job) return job;
    }
    return undefined;
  }

  #start(slot: Slot, job: Job): void {
    slot.job = job;
    this.#running.set(job.owner, (this.#running.get(job.owner) ?? 0) + 1);
    const worker = (slot.worker ??= this.#spawn(slot));
    void slot.ready?.then(() => {
      if (slot.job !== job || slot.worker !== worker) return;
      slot.timer = setTimeout(() => {
        // The worker did not answer in time: stop it, and the next job gets a fresh one.
        slot.worker = undefined;
        void worker.terminate();
        this.#finish(slot, {
          ok: false,
          kind: 'deadline',
          reason: `took longer than ${this.o.deadlineMs} ms to decode`,
        });
      }, this.o.deadlineMs);
      const timeoutSeconds = Math.max(1, Math.floor(this.o.deadlineMs / 1000) - 1);
      worker.postMessage({ id: job.id, bytes: job.bytes, maxPixels: this.o.maxPixels, timeoutSeconds }, [
        job.bytes.buffer,
      ]);
    });
  }

  #spawn(slot: Slot): Worker {
    // Plain JavaScript: no loader flags of the parent (tsx, vitest) are needed, and they cost startup time.
    const worker = new Worker(workerUrl, { execArgv: [] });
    worker.unref();
    let markReady: () => void = () => {};
    slot.ready = new Promise((resolve) => {
      markReady = resolve;
    });
    worker.on('message', (answer: WorkerAnswer | 'ready') => {
      if (answer === 'ready') return markReady();
      if (slot.worker !== worker || slot.job?.id !== answer.id) return;
      if (answer.ok) return this.#finish(slot, { ok: true });
      const kind = answer.timedOut ? 'deadline' : 'corrupt';
      this.#finish(slot, { ok: false, kind, reason: answer.reason ?? 'the image does not decode' });
    });
    const lost = (why: string) => {
      markReady();
      if (slot.worker !== worker) return;
      slot.worker = undefined;
      if (slot.job) this.#finish(slot, { ok: false, kind: 'corrupt', reason: `the decoder stopped: ${why}` });
    };
    worker.on('error', (error) => lost(error.message));
    worker.on('exit', (code) => lost(`exit ${code}`));
    return worker;
  }

  #finish(slot: Slot, outcome: DecodeOutcome): void {
    const job = slot.job;
    if (!job) return;
    if (slot.timer) clearTimeout(slot.timer);
    slot.job = undefined;
    slot.timer = undefined;
    const left = (this.#running.get(job.owner) ?? 1) - 1;
    if (left > 0) this.#running.set(job.owner, left);
    else this.#running.delete(job.owner);
    job.resolve(outcome);
    this.#pump();
  }
}
