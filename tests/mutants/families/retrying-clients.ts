/**
 * Mutants of the retrying-clients class (issue 12): a 429 whose Retry-After a client cannot honour.
 * The proxy takes the starts bucket over (limits.ts, `edgeLimited`) with the reference's rolling
 * window, and changes one thing about it.
 */
import type { Mutation } from '../mutating-proxy.ts';
import { edgeLimited } from './limits.ts';

export const retryingClientMutants: readonly Mutation[] = [
  {
    name: 'refused-starts-refill-the-window',
    family: 'limits',
    class: 'retrying-clients',
    breaks: ['LIMIT-429-RETRY-AFTER'],
    does: 'a refused start counts in the window too, while Retry-After names the time the oldest counted start leaves: a client that waits as told is refused again',
    ...edgeLimited({ bucket: 'starts', countRefused: true }),
  },
  {
    name: 'retry-after-from-first-start',
    family: 'limits',
    class: 'retrying-clients',
    breaks: ['LIMIT-429-RETRY-AFTER'],
    does: "Retry-After counts from the account's first start ever: right in the first window, too short once that start has left it",
    ...edgeLimited({ bucket: 'starts', retryAfterFromFirst: true }),
  },
];
