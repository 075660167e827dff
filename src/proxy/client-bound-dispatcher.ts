/**
 * The upstream requests of the proxy carry their client's abort: when the client goes away before its
 * answer, the upstream's request is aborted too, so the upstream sees what the client did (a sync call
 * dropped at 100 ms is dropped at the upstream too, not held to its end by the proxy). reply-from does
 * not take a signal per request, so the signal rides an AsyncLocalStorage from `withClientSignal` to
 * the dispatcher reply-from calls.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { Agent, type Dispatcher } from 'undici';

const clientSignals = new AsyncLocalStorage<AbortSignal>();

/** Runs `forward` (which calls reply.from) with the client's signal for its upstream request. */
export function withClientSignal(signal: AbortSignal, forward: () => void): void {
  clientSignals.run(signal, forward);
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
    const signal = clientSignals.getStore();
    const withSignal = signal === undefined ? opts : { ...opts, signal };
    return (agent.request as (o: Dispatcher.RequestOptions, c?: unknown) => unknown)(withSignal, callback);
  }) as Dispatcher['request'];
  return { request, destroy: () => agent.destroy() };
}
