/**
 * Source mutants for the formats the spec excludes and for the unit of Retry-After: realistic bugs
 * in the reference server that a suite sending only honestly named GIFs and WebPs, and reading only
 * the syntax of Retry-After, lets pass.
 */
import type { SourceMutant } from './source-mutant.ts';

const uploads = 'src/server/routes/images.ts';
const starts = 'src/server/domain/tryon-starts.ts';

/** The line that judges a fetched image, where the URL mutants take over. */
const inspectFetched = '  const inspected = await deps.inspect(fetched.bytes, accountId);';

export const formatMutants: readonly SourceMutant[] = [
  {
    name: 'upload-type-from-file-name',
    file: uploads,
    family: 'validation',
    breaks: ['RES-IMAGE-FORMATS-JPEG-PNG', 'ERR-UNSUPPORTED-IMAGE'],
    does: 'an upload refused as not JPEG or PNG is taken after all when its file name ends .jpg or .png and the image library reads it: a GIF (or WebP, TIFF, AVIF, SVG) named photo.jpg is accepted',
    edits: [
      {
        find: "import { ApiError } from '../api-errors.ts';",
        replace: "import sharp from 'sharp';\nimport { ApiError } from '../api-errors.ts';",
      },
      {
        find: "    if (part.file.truncated || bytes.length > maxBytes) throw new ApiError('IMAGE_TOO_LARGE');\n    return bytes;",
        replace:
          "    if (part.file.truncated || bytes.length > maxBytes) throw new ApiError('IMAGE_TOO_LARGE');\n    return Object.assign(bytes, { uploadName: part.filename });",
      },
      {
        find: '      const inspected = await ctx.inspect(bytes, request.accountId);',
        replace: [
          '      let inspected = await ctx.inspect(bytes, request.accountId);',
          "      const named = /\\.(jpe?g|png)$/i.test((bytes as { uploadName?: string }).uploadName ?? '');",
          '      const readable = named && (await sharp(bytes).metadata().then(() => true, () => false));',
          "      if (!inspected.ok && readable) inspected = { ok: true, format: 'jpeg', width: 0, height: 0 };",
        ].join('\n'),
      },
    ],
  },
  {
    name: 'url-type-from-content-type',
    file: starts,
    family: 'validation',
    breaks: ['CREATE-URL-FILE-JPEG-OR-PNG', 'ERR-UNSUPPORTED-IMAGE'],
    does: 'a fetched image refused as not JPEG or PNG is taken after all when its host declares Content-Type image/jpeg or image/png and the image library reads it: a WebP (or GIF, TIFF, AVIF, SVG) served as image/png starts a try-on',
    edits: [
      {
        find: "import { ApiError, type ErrorCode } from '../api-errors.ts';",
        replace: "import sharp from 'sharp';\nimport { ApiError, type ErrorCode } from '../api-errors.ts';",
      },
      {
        find: inspectFetched,
        replace: [
          '  let inspected = await deps.inspect(fetched.bytes, accountId);',
          "  const declared = /^image\\/(jpeg|png)\\b/i.test(fetched.contentType ?? '');",
          '  const readable = declared && (await sharp(fetched.bytes).metadata().then(() => true, () => false));',
          "  if (!inspected.ok && readable) inspected = { ok: true, format: 'jpeg', width: 0, height: 0 };",
        ].join('\n'),
      },
    ],
  },
  {
    name: 'heif-by-url-accepted',
    file: starts,
    family: 'validation',
    breaks: ['CREATE-URL-FILE-JPEG-OR-PNG', 'ERR-UNSUPPORTED-IMAGE'],
    does: 'a photo in the HEIF container (HEIC, AVIF: what phones take) is taken by URL without the format check',
    edits: [
      {
        find: inspectFetched,
        replace: [
          "  const heif = fetched.bytes.toString('latin1', 4, 8) === 'ftyp';",
          '  const inspected = heif',
          "    ? { ok: true as const, format: 'jpeg' as const, width: 0, height: 0 }",
          '    : await deps.inspect(fetched.bytes, accountId);',
        ].join('\n'),
      },
    ],
  },
  {
    name: 'retry-after-in-milliseconds',
    file: 'src/server/routes/rate-limit.ts',
    family: 'limits',
    breaks: ['LIMIT-RETRY-AFTER-WITHIN-WINDOW'],
    does: 'a 429 over a per-minute limit gives Retry-After in milliseconds (54000 for a 54 s wait)',
    edits: [
      {
        find: "'retry-after': String(decision.retryAfterSeconds),",
        replace: "'retry-after': String(decision.retryAfterSeconds * 1000),",
      },
    ],
  },
];
