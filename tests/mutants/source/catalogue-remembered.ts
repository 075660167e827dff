/** Source mutants for outcomes remembered by too little: a decode verdict by a prefix, a busy answer for another account. */
import type { SourceMutant } from './source-mutant.ts';

const verdicts = 'src/server/domain/images/decode-verdicts.ts';

export const rememberedMutants: readonly SourceMutant[] = [
  {
    name: 'decode-verdict-by-prefix',
    file: verdicts,
    family: 'validation',
    class: 'remembered-verdicts',
    breaks: ['ERR-UNSUPPORTED-IMAGE'],
    does: 'decodes that went through are remembered by a digest of the first 64 KiB (hashing 4 MB per upload looked costly): a copy of an accepted image damaged further on is let through',
    edits: [
      {
        find: 'const key = ResultCache.keyOf([bytes]);',
        replace:
          '// The first 64 KiB (headers and the first rows) tell images apart.\n    const key = ResultCache.keyOf([bytes.subarray(0, 64 * 1024)]);',
      },
    ],
  },
  {
    name: 'busy-verdict-remembered',
    file: verdicts,
    family: 'validation',
    class: 'remembered-verdicts',
    breaks: ['ERR-UNAVAILABLE'],
    does: 'every decode outcome is remembered by the bytes, a full queue included: once one account got 503 for an image, every account gets 503 for it, for good',
    edits: [
      {
        find: '  const known = new Map<string, true>();',
        replace: '  const known = new Map<string, DecodeOutcome>();',
      },
      {
        find: '      known.delete(key);\n      known.set(key, true);\n      return decodedOk;',
        replace:
          '      const remembered = known.get(key) ?? decodedOk;\n      known.delete(key);\n      known.set(key, remembered);\n      return remembered;',
      },
      {
        find: '    if (outcome.ok) {\n      known.set(key, true);',
        replace:
          '    // A decode depends on the bytes alone: remember every outcome.\n    {\n      known.set(key, outcome);',
      },
    ],
  },
];
