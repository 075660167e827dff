/**
 * POST /images (spec: Endpoints, POST /images; Uploaded image; Image requirements). The size cap is
 * enforced while the file streams in (busboy stops at the limit), the type comes from magic bytes,
 * and the image is fully decoded under a pixel cap before it is stored.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from '../api-errors.ts';
import { newImageId } from '../domain/ids.ts';
import { authenticate } from './auth.ts';
import type { ServerContext } from './context.ts';
import { rateLimit } from './rate-limit.ts';

export function imageRoutes(app: FastifyInstance, ctx: ServerContext): void {
  app.post('/api/v1/images', { onRequest: [authenticate(ctx), rateLimit(ctx, 'uploads')] }, async (request) => {
    if (!request.isMultipart()) {
      throw new ApiError('UNSUPPORTED_MEDIA_TYPE', 'Content-Type must be multipart/form-data with a boundary.');
    }
    const bytes = await readFilePart(request, ctx.settings.maxImageBytes);
    const inspected = await ctx.inspect(bytes, request.accountId);
    if (!inspected.ok) throw new ApiError(inspected.code, inspected.reason, inspected.code === 'UNAVAILABLE' ? { 'retry-after': '1' } : {});
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
    ctx.store.insertImage(image);
    return { id: image.id, expiresAt: new Date(image.expiresAt).toISOString() };
  });
}

/**
 * Reads the one `file` part. Busboy stops at the size limit while streaming; the part is then
 * marked truncated (also when the byte past the limit arrives on its own), which is a 413.
 * Any other failure to read the multipart body is the client's: 400 INVALID_REQUEST, never a 5xx.
 */
async function readFilePart(request: FastifyRequest, maxBytes: number): Promise<Buffer> {
  try {
    const part = await request.file({ limits: { fileSize: maxBytes, files: 1, fields: 8, parts: 9, fieldSize: 1024 }, throwFileSizeLimit: true });
    if (!part || part.fieldname !== 'file') {
      part?.file.resume();
      throw new ApiError('INVALID_REQUEST', "The multipart body needs a 'file' part.");
    }
    const bytes = await part.toBuffer();
    if (part.file.truncated || bytes.length > maxBytes) throw new ApiError('IMAGE_TOO_LARGE');
    return bytes;
  } catch (error) {
    if (error instanceof ApiError) throw error;
    if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw new ApiError('IMAGE_TOO_LARGE');
    throw new ApiError('INVALID_REQUEST', `The multipart body could not be read: ${(error as Error).message}`);
  }
}
