/**
 * Health and readiness for a balancer or an orchestrator, outside `/api/v1` (openapi-control.yaml):
 * `GET /healthz` answers while the process runs; `GET /readyz` answers 200 only while the store answers
 * a trivial query and the server is neither draining (`app.markNotReady()`, before a planned shutdown) nor
 * shutting down, else 503 UNAVAILABLE in the envelope. Neither needs a key nor counts against any rate
 * limit. Both name the instance, so a balancer's spread shows.
 */
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../api-errors.ts';
import type { Store } from '../store/store.ts';
import { readinessDeadlineMs } from '../../shared/readiness.ts';

/** What the two endpoints read: the store to probe, and the instance's name. */
export interface HealthDeps {
  readonly store: Pick<Store, 'accountExists'>;
  readonly instance: string;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** From now on /readyz answers 503, so a balancer sends no new request here; every other route still answers. */
    markNotReady(): void;
  }
}

/** Registers GET /healthz and GET /readyz on `app`, and `app.markNotReady()`. */
export function healthRoutes(app: FastifyInstance, deps: HealthDeps): void {
  let closing = false;
  let draining = false;
  app.decorate('markNotReady', () => {
    draining = true;
  });
  app.addHook('preClose', (done) => {
    closing = true;
    done();
  });
  app.get('/healthz', async () => ({ status: 'ok', instance: deps.instance }));
  app.get('/readyz', async (_request, reply) => {
    if (closing) throw notReady('The server is shutting down.');
    if (draining) throw notReady('The server is draining before it shuts down.');
    try {
      await withDeadline(Promise.resolve(deps.store.accountExists('acct_readiness_probe')), readinessDeadlineMs);
    } catch {
      throw notReady('The store does not answer.');
    }
    reply.header('cache-control', 'no-store');
    return { status: 'ready', instance: deps.instance };
  });
}

function notReady(message: string): ApiError {
  return new ApiError('UNAVAILABLE', `Not ready: ${message}`, { 'retry-after': '1', 'cache-control': 'no-store' });
}

function withDeadline<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('deadline')), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}
