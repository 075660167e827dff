/** Source mutants for branches the spec names that common traffic never takes: refused starts and their ledger, a busy decoder. */
import type { SourceMutant } from './source-mutant.ts';

const starts = 'src/server/domain/tryon-starts.ts';
const inspect = 'src/server/domain/images/inspect-image.ts';

/** The end of a start that stored nothing: where every refused start gives its reservation back. */
const refundOnRefusal = `  } finally {
    // Spec: "A try-on that fails, or cannot be started, is refunded automatically."
    if (!stored) await deps.store.returnCredit(id, 'release', deps.clock.now());
  }`;

/** The same end, with the refund skipped for one code: the reservation is left for a later step. */
const refundUnless = (code: string, why: string): string => `  } catch (error) {
    // ${why}
    if (!(error instanceof ApiError && error.code === '${code}')) await deps.store.returnCredit(id, 'release', deps.clock.now());
    throw error;
  }`;

export const rareBranchMutants: readonly SourceMutant[] = [
  {
    name: 'unavailable-start-keeps-credit',
    file: starts,
    family: 'credits',
    class: 'rare-branches',
    breaks: ['STATE-CREATE-STARTS-PENDING'],
    does: 'a start refused with 503 UNAVAILABLE keeps its reservation "for the retry with the same key", which reserves anew: the credit is lost',
    edits: [
      {
        find: refundOnRefusal,
        replace: refundUnless(
          'UNAVAILABLE',
          'A 503 is retried with the same key: its reservation is kept for the retry.',
        ),
      },
    ],
  },
  {
    name: 'internal-error-start-keeps-credit',
    file: starts,
    family: 'credits',
    class: 'rare-branches',
    breaks: ['STATE-CREATE-STARTS-PENDING'],
    does: 'a start that ends in 500 INTERNAL_ERROR leaves its reservation to the orphan sweep at the next boot: until then the credit is gone',
    edits: [
      {
        find: refundOnRefusal,
        replace: refundUnless(
          'INTERNAL_ERROR',
          'After an internal error the start may be half done; the orphan sweep at boot returns the reservation.',
        ),
      },
    ],
  },
  {
    name: 'busy-upload-refused-400',
    file: 'src/server/routes/upload-slots.ts',
    family: 'codes',
    class: 'rare-branches',
    breaks: ['UPLOAD-ERROR-LIST'],
    does: "an upload that finds too many of its account waiting is refused as the client's fault, 400 INVALID_REQUEST, instead of 503 UNAVAILABLE",
    edits: [
      {
        find: "throw new ApiError('UNAVAILABLE', message, { 'retry-after': '1' });",
        replace: "throw new ApiError('INVALID_REQUEST', message);",
      },
    ],
  },
  {
    name: 'busy-decoder-unsupported',
    file: inspect,
    family: 'codes',
    class: 'rare-branches',
    breaks: ['ERR-UNSUPPORTED-IMAGE'],
    does: "a decode that found its account's decode queue full is refused like a file that does not decode: 400 UNSUPPORTED_IMAGE for a valid image",
    edits: [
      {
        find: "    if (decoded.kind === 'busy') return refuse('UNAVAILABLE',",
        replace: "    if (decoded.kind === 'busy') return refuse('UNSUPPORTED_IMAGE',",
      },
    ],
  },
  {
    name: 'decode-deadline-accepted',
    file: inspect,
    family: 'validation',
    class: 'rare-branches',
    breaks: ['ERR-UNSUPPORTED-IMAGE'],
    does: 'an image whose decode outlasts the deadline is let through ("slow is not broken"): a file that never finished decoding is accepted',
    expected: {
      verdict: 'equivalent',
      why: 'the embedded decoder has a 4 s deadline (libvips stops itself at 3 s), and no image within the decode budget takes that long without burning seconds of CPU on a 2-core run (a 6000×6000 PNG, 36 Mpx, decodes in about 40 ms, its interlaced form in about 0.6 s); a valid image that is merely slow may be accepted ("Formats | JPEG or PNG"), so only a damaged one could tell, and none is slow enough',
    },
    edits: [
      {
        find: `    if (decoded.kind === 'deadline')\n      return {\n        ok: false,\n        code: 'UNSUPPORTED_IMAGE',\n        reason: \`the \${format} image \${decoded.reason}\`,\n        overBudget: true,\n      };\n`,
        replace:
          "    // Running out of time found nothing wrong with the file: let it through.\n    if (decoded.kind === 'deadline') return { ok: true, format, width, height };\n",
      },
    ],
  },
];
