/**
 * GET /_control/client-grade (openapi-control.yaml): the client grade of the sandbox's callers, in
 * JSON, JUnit, Markdown or HTML, for all callers or one (`caller`: an account id). Behind the
 * control token like the rest of the test-control extension.
 */
import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../api-errors.ts';
import { bearerToken } from '../domain/api-keys.ts';
import type { ServerContext } from '../routes/context.ts';
import { gradeCallLog } from '../../grade/grade.ts';
import { gradeFormats, gradeMediaTypes, writeGrade, type GradeFormat } from '../../grade/write-grade.ts';

type GradeQuery = { Querystring: { format?: string; caller?: string } };

export function gradeRoutes(app: FastifyInstance, ctx: ServerContext, token: string): void {
  const expected = Buffer.from(token);
  app.get<GradeQuery>('/_control/client-grade', {
    onRequest: async (request) => {
      const presented = Buffer.from(bearerToken(request.headers.authorization) ?? '');
      if (presented.length !== expected.length || !timingSafeEqual(presented, expected))
        throw new ApiError('INVALID_API_KEY', 'Missing or wrong control token.');
    },
    handler: async (request, reply) => {
      if (!ctx.callLog)
        throw new ApiError('NOT_FOUND', 'Client grading is off on this server: start it with serve --grade-clients.');
      const format = (request.query.format ?? 'json') as GradeFormat;
      if (!gradeFormats.includes(format))
        throw new ApiError('INVALID_REQUEST', `format must be one of ${gradeFormats.join(', ')}.`);
      const caller = request.query.caller;
      if (caller !== undefined && !/^[\w-]{1,100}$/.test(caller))
        throw new ApiError('INVALID_REQUEST', 'caller must be an account id.');
      const log = ctx.sharedCallLog ? await ctx.sharedCallLog() : ctx.callLog;
      const grade = gradeCallLog(log, ctx.clock.now(), caller);
      return reply.type(gradeMediaTypes[format]).send(writeGrade(grade, format));
    },
  });
}
