/** GET /account (spec: Endpoints, "the way to read the number of credits left"; shape implementation-defined). */
import type { FastifyInstance } from 'fastify';
import { authenticate } from './auth.ts';
import type { ServerContext } from './context.ts';

export function accountRoutes(app: FastifyInstance, ctx: ServerContext): void {
  app.get('/api/v1/account', { onRequest: authenticate(ctx) }, async (request) => ({
    credits: Math.max(0, await ctx.store.balance(request.accountId)),
  }));
}
