/**
 * GET /i/{file}: result images (spec: Try-on resultUrl; Authentication 7). Public, no key, served
 * with their real Content-Type, gone (404) once 24 hours have passed on the server clock.
 */
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../api-errors.ts';
import type { ServerContext } from './context.ts';

export function resultRoutes(app: FastifyInstance, ctx: ServerContext): void {
  app.get<{ Params: { file: string } }>('/i/:file', async (request, reply) => {
    const result = await ctx.store.findResult(request.params.file);
    const now = ctx.clock.now();
    if (!result || result.expiresAt <= now) throw new ApiError('NOT_FOUND', 'No result image at this address.');
    return reply
      .type(result.format === 'jpeg' ? 'image/jpeg' : 'image/png')
      .header('cache-control', `public, max-age=${Math.floor((result.expiresAt - now) / 1000)}`)
      .send(result.bytes);
  });
}
