/**
 * The floor of benchmark 1: a bare fastify 5 server in its own process — logger off, no hooks, no
 * plugins, no schemas — that answers each benchmarked route (the reference server's path shapes)
 * with a constant, pre-serialised JSON body of the byte size the reference server answered in the
 * same run. No API server does less per request than this on the same machine, so the reference
 * server's ratio to it says how much of the machine its own work costs.
 *
 * Routes come as JSON in BENCH_FLOOR_ROUTES (FloorRoute[]). Never started by hand: bench/floor-process.ts forks it.
 */
import Fastify from 'fastify';

export interface FloorRoute {
  readonly method: 'GET' | 'POST';
  /** A fastify route path, e.g. /api/v1/tryons/:id. */
  readonly url: string;
  readonly status: number;
  /** The exact body to send, already JSON. */
  readonly body: string;
}

export type FromFloor = { readonly type: 'ready'; readonly url: string; readonly pid: number };

const routes = JSON.parse(process.env.BENCH_FLOOR_ROUTES ?? '[]') as FloorRoute[];
const app = Fastify({ logger: false });
for (const route of routes) {
  app.route({
    method: route.method,
    url: route.url,
    // A synchronous handler and a string body: fastify writes it as is, with no serialiser.
    handler: (_request, reply) => {
      reply.code(route.status).header('content-type', 'application/json; charset=utf-8').send(route.body);
    },
  });
}
const url = await app.listen({ host: '127.0.0.1', port: 0 });
// The parent going away (or its IPC channel closing) ends this process too: nothing is left listening.
process.on('disconnect', () => process.exit(0));
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
process.send?.({ type: 'ready', url, pid: process.pid } satisfies FromFloor);
