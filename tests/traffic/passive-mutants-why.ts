/**
 * Why the proxy cannot flag a mutant passively: what its breach is, and why no exchange the proxy sees
 * (request and answer, across exchanges, per account) shows it. The score report prints the reason
 * next to every mutant the passive judge did not flag; one without a reason here is a gap in the rules.
 */
export const notVisible: Readonly<Record<string, string>> = {
  'redirect-followed':
    "the redirect is between the server and the image host, in the server's own fetch, which never passes " +
    'the proxy; the client sees a start accepted with a URL nothing in the request marks as redirecting',
  'transient-error-replayed':
    'a retry answered with the same 5xx looks like the server failing again, which conforming servers do ' +
    "(the baseline's own START_FAILED repeats); that the fault was a one-off is in the uploaded image's " +
    'scenario, not in the traffic',
  'failed-read-as-500':
    'every read of a failed try-on answers 500 INTERNAL_ERROR, a documented answer of GET /tryons/{id}, so ' +
    'the traffic never shows the try-on failed to tell the 500 from a server fault',
  'sync-drop-cancels-tryon':
    'after the drop the try-on reads failed and is refunded: a failure the spec allows ("generation cannot ' +
    'finish"), so the traffic cannot tell a cancel from a real failure',
  'create-waits-for-generation':
    'the create still answers pending, only later; the spec gives "immediately" no bound, and the traffic ' +
    'does not say how long generation took',
  'result-url-outside-i':
    "the mutation does not act in this chain: the server's resultUrls name the outer proxy, not the " +
    "mutant's, so nothing is rewritten (the run's survival says the same)",
};
