/**
 * The server a flow run talks to: `serve` itself, or `serve` behind the mutating proxy of
 * tests/mutants playing one mutant (one rule of the spec broken on top of the real server).
 */
import { randomBytes } from 'node:crypto';
import { mutants } from '../mutants/mutants.ts';
import { startMutatingProxy } from '../mutants/mutating-proxy.ts';
import { startServe } from './serve-process.ts';

export interface FlowTarget {
  readonly origin: string;
  readonly controlToken: string;
  close(): Promise<void>;
}

/** Starts `serve` (and the proxy, when a mutant is named). Throws for an unknown mutant name. */
export async function startFlowTarget(mutant?: string): Promise<FlowTarget> {
  const mutation = mutant === undefined ? undefined : mutants.find((m) => m.name === mutant);
  if (mutant !== undefined && mutation === undefined) throw new Error(`unknown mutant: ${mutant}`);
  const controlToken = randomBytes(18).toString('base64url');
  const serve = await startServe(controlToken);
  if (mutation === undefined) return { origin: serve.origin, controlToken, close: serve.stop };
  try {
    // No flow fetches an image by URL, so the fixture host the validation mutants consult is a placeholder.
    const proxy = await startMutatingProxy(serve.origin, mutation, {
      controlToken,
      fixtureBaseUrl: 'https://127.0.0.1:9/f',
      fixtureCa: '',
    });
    return {
      origin: proxy.url,
      controlToken,
      async close() {
        await proxy.close();
        await serve.stop();
      },
    };
  } catch (error) {
    await serve.stop();
    throw error;
  }
}
