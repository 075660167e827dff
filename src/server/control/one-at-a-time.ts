/**
 * One call at a time per key, in this process: a read-then-write through the asynchronous store (an account's
 * limits merged with a partial update) must not interleave with another for the same key at an await.
 */

/** Returns a runner: `run(key, work)` starts `work` once every earlier call for `key` has settled. */
export function oneAtATime(): <T>(key: string, work: () => Promise<T>) => Promise<T> {
  const tails = new Map<string, Promise<unknown>>();
  return (key, work) => {
    const before = tails.get(key) ?? Promise.resolve();
    const mine = before.then(work, work);
    const tail = mine.catch(() => undefined);
    tails.set(key, tail);
    // The last call for a key removes its entry, so the map holds only keys with calls under way.
    void tail.then(() => {
      if (tails.get(key) === tail) tails.delete(key);
    });
    return mine;
  };
}
