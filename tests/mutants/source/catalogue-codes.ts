/**
 * Source mutants for the code a status implies, given only when the request created its condition:
 * the suite records a code of the target's own where the request shows no case of the status's one
 * code (a JSON body over a front-end cap), and must still fail one where the case is there (an image
 * over 4 MB, however the server comes to refuse it).
 */
import type { SourceMutant } from './source-mutant.ts';

const images = 'src/server/routes/images.ts';

export const codeMutants: readonly SourceMutant[] = [
  {
    name: 'upload-cap-answers-payload-too-large',
    file: images,
    family: 'codes',
    breaks: ['ERR-IMAGE-TOO-LARGE'],
    does: "the upload's early Content-Length guard answers by hand with the HTTP reason as its code: an image over 4 MB gets 413 PAYLOAD_TOO_LARGE",
    edits: [
      {
        find: '  return async (request) => {\n    const declared',
        replace: '  return async (request, reply) => {\n    const declared',
      },
      {
        find: "      throw new ApiError(\n        'IMAGE_TOO_LARGE',\n        `The body declares",
        replace:
          "      return reply.code(413).send({ error: 'Payload Too Large', code: 'PAYLOAD_TOO_LARGE' });\n      throw new ApiError(\n        'IMAGE_TOO_LARGE',\n        `The body declares",
      },
    ],
  },
];
