/**
 * The upstream requests of the proxy carry their client's abort: when the client goes away before its
 * answer, the upstream's request is aborted too, so the upstream sees what the client did (a sync call
 * dropped at 100 ms is dropped at the upstream too, not held to its end by the proxy). reply-from takes
 * no signal per request, but it calls its undici instance's `request` synchronously from `reply.from`:
 * `withClientSignal` hands the signal over for that call. (No AsyncLocalStorage: it would turn on
 * async tracking for every request of the process.)
 */
import { Agent, type Dispatcher } from 'undici';

/** The one signal handed to the next upstream request, while `reply.from` runs. */
let handedOver: ClientSignal | undefined;

/** Runs `forward` (which calls reply.from) with the client's signal for its upstream request. */
export function withClientSignal(signal: ClientSignal, forward: () => void): void {
  handedOver = signal;
  try {
    forward();
  } finally {
    handedOver = undefined;
  }
}

type Listener = () => void;

/**
 * An abort signal of one exchange, as small as undici needs (aborted, reason, add and remove a
 * listener): an AbortController per exchange costs an EventTarget the proxy does not otherwise need.
 */
export class ClientSignal {
  aborted = false;
  reason: Error | undefined;
  #listener: Listener | undefined;

  addEventListener(_type: 'abort', listener: Listener): void {
    this.#listener = listener;
  }

  removeEventListener(_type: 'abort', listener: Listener): void {
    if (this.#listener === listener) this.#listener = undefined;
  }

  /** The client went: the upstream's request, if still under way, is aborted. */
  abort(): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = new Error('The client went away before its answer.');
    const listener = this.#listener;
    this.#listener = undefined;
    listener?.();
  }
}

/** What reply-from needs of an undici instance: `request`, and `destroy` when the proxy closes. */
export interface ClientBoundDispatcher {
  request: Dispatcher['request'];
  destroy(): Promise<void>;
}

/** An undici Agent with `options` whose requests each take the signal of the client they forward for. */
export function clientBoundDispatcher(options: Agent.Options): ClientBoundDispatcher {
  const agent = new Agent(options);
  const request = ((opts: Dispatcher.RequestOptions, callback?: unknown) => {
    const signal = handedOver;
    handedOver = undefined;
    const withSignal = signal === undefined ? opts : { ...opts, signal: signal as unknown as AbortSignal };
    return (agent.request as (o: Dispatcher.RequestOptions, c?: unknown) => unknown)(withSignal, callback);
  }) as Dispatcher['request'];
  return { request, destroy: () => agent.destroy() };
}
