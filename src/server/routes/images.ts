/**
 * POST /images (spec: Endpoints, POST /images; Uploaded image; Image requirements). The size cap is
 * enforced before the body is read (Content-Length) and while it streams in (busboy stops at the
 * limit, and the whole body is counted), the type comes from magic bytes, and the image is judged
 * from its headers and then fully decoded in the decode pool before it is stored.
 */
import type { FastifyInstance, FastifyRequest, onRequestHookHandler } from 'fastify';
import { ApiError } from '../api-errors.ts';
import { newImageId } from '../domain/ids.ts';
import { assertUploadFits, storeUpload } from '../domain/upload-quota.ts';
import type { ServerContext } from './context.ts';
import { authenticateAndLimit } from './rate-limit.ts';
import { readStreamInto } from './read-stream.ts';
import { holdUploadSlot, UploadSlots } from './upload-slots.ts';

/** What a multipart body may carry besides the image: boundaries, part headers, a few small fields. */
export const multipartAllowance = 64 * 1024;

export function imageRoutes(app: FastifyInstance, ctx: ServerContext): void {
  const maxBody = ctx.settings.maxImageBytes + multipartAllowance;
  const { settings } = ctx;
  // The bodies held in memory at once, so that parallel uploads cannot grow the server without limit.
  const slots = new UploadSlots({
    total: settings.maxUploadBodies,
    perAccount: settings.maxUploadBodiesPerAccount,
    perClient: settings.maxUploadBodiesPerClient,
    // Refused before the request deadline would answer 408 for a body the server chose not to read yet.
    waitMs: Math.min(settings.uploadBodyWaitMs, settings.requestDeadlineMs / 2),
    waitingPerAccount: settings.maxUploadsWaitingPerAccount,
  });
  app.post(
    '/api/v1/images',
    { onRequest: [authenticateAndLimit(ctx, 'uploads'), refuseLongBody(maxBody)] },
    async (request, reply) => {
      if (!request.isMultipart()) {
        throw new ApiError('UNSUPPORTED_MEDIA_TYPE', 'Content-Type must be multipart/form-data with a boundary.');
      }
      // An account at its storage quota is refused before its image is read or decoded.
      await assertUploadFits(ctx, request.accountId, ctx.clock.now(), 1);
      await holdUploadSlot(slots, request, reply);
      const bytes = await readWholeBody(request, maxBody, readFilePart(request, ctx.settings.maxImageBytes));
      const inspected = await ctx.inspect(bytes, request.accountId);
      if (!inspected.ok)
        throw new ApiError(
          inspected.code,
          inspected.reason,
          inspected.code === 'UNAVAILABLE' ? { 'retry-after': '1' } : {},
        );
      const format = bytes[0] === 0xff ? 'jpeg' : 'png';
      const now = ctx.clock.now();
      const image = {
        id: newImageId(),
        accountId: request.accountId,
        format,
        bytes,
        scenario: inspected.scenario ?? null,
        createdAt: now,
        expiresAt: now + ctx.settings.imageIdTtlMs,
      } as const;
      await storeUpload(ctx, image);
      return { id: image.id, expiresAt: new Date(image.expiresAt).toISOString() };
    },
  );
}

/** 413 from the declared Content-Length alone, before a byte of the body is read. */
function refuseLongBody(maxBody: number): onRequestHookHandler {
  return async (request) => {
    const declared = Number(request.headers['content-length']);
    if (Number.isFinite(declared) && declared > maxBody) {
      throw new ApiError(
        'IMAGE_TOO_LARGE',
        `The body declares ${declared} bytes; an upload may be at most ${maxBody} (a 4 MB image and its multipart framing).`,
      );
    }
  };
}

/**
 * Counts every byte of the body (chunked ones have no Content-Length) while `reading` goes on, and
 * stops at the first byte over `maxBody`: the body is unpiped and paused, and the 413 that follows
 * closes the connection, so nothing more is read.
 */
async function readWholeBody<T>(request: FastifyRequest, maxBody: number, reading: Promise<T>): Promise<T> {
  const raw = request.raw;
  let seen = 0;
  let overrun: (error: ApiError) => void = () => {};
  const over = new Promise<never>((_, reject) => {
    overrun = reject;
  });
  const count = (chunk: Buffer) => {
    seen += chunk.length;
    if (seen <= maxBody) return;
    raw.off('data', count);
    raw.unpipe();
    raw.pause();
    overrun(
      new ApiError(
        'IMAGE_TOO_LARGE',
        `The body is over ${maxBody} bytes; an upload may be at most that (a 4 MB image and its multipart framing).`,
      ),
    );
  };
  raw.on('data', count);
  try {
    return await Promise.race([reading, over]);
  } finally {
    raw.off('data', count);
  }
}

/**
 * Reads the one `file` part. Busboy stops at the size limit while streaming; the part is then
 * marked truncated (also when the byte past the limit arrives on its own), which is a 413.
 * Any other failure to read the multipart body is the client's: 400 INVALID_REQUEST, never a 5xx.
 */
async function readFilePart(request: FastifyRequest, maxBytes: number): Promise<Buffer> {
  try {
    const part = await request.file({
      limits: { fileSize: maxBytes, files: 1, fields: 8, parts: 9, fieldSize: 1024 },
      throwFileSizeLimit: true,
    });
    if (!part || part.fieldname !== 'file') {
      part?.file.resume();
      throw new ApiError('INVALID_REQUEST', "The multipart body needs a 'file' part.");
    }
    // The file is at most the body's declared length (and the limit); chunked bodies declare none.
    const declared = Math.min(Number(request.headers['content-length']) || 0, maxBytes);
    const bytes = await readStreamInto(part.file, declared);
    if (part.file.truncated || bytes.length > maxBytes) throw new ApiError('IMAGE_TOO_LARGE');
    return bytes;
  } catch (error) {
    if (error instanceof ApiError) throw error;
    if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw new ApiError('IMAGE_TOO_LARGE');
    throw new ApiError('INVALID_REQUEST', `The multipart body could not be read: ${(error as Error).message}`);
  }
}
