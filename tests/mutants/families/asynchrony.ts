/**
 * Mutants of the asynchrony class (issue 12): "Returns immediately; the image is made in the
 * background." broken by a create that answers only once the generation is over.
 */
import type { Mutation } from '../mutating-proxy.ts';
import { isAsyncCreate, json } from '../helpers.ts';

const pollMs = 50;
/** Longer than any generation of the embedded server (its slow generation is 4 s). */
const giveUpMs = 60_000;

export const asynchronyMutants: readonly Mutation[] = [
  {
    name: 'create-waits-for-generation',
    family: 'state',
    class: 'asynchrony',
    breaks: ['CREATE-RETURNS-IMMEDIATELY'],
    does: 'POST /tryons holds its `pending` answer until the generation has finished',
    response: async (res, req, ctx) => {
      const id = json(res)?.id;
      if (!isAsyncCreate(req) || res.status !== 200 || typeof id !== 'string') return res;
      const until = Date.now() + giveUpMs;
      while (Date.now() < until) {
        const read = await ctx.upstream({
          method: 'GET',
          path: `/api/v1/tryons/${encodeURIComponent(id)}`,
          headers: { authorization: req.headers.authorization ?? '' },
          body: Buffer.alloc(0),
        });
        if (read.status !== 200 || json(read)?.status !== 'pending') break;
        await new Promise((r) => setTimeout(r, pollMs));
      }
      return res;
    },
  },
];
