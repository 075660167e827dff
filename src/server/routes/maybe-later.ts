/**
 * A value now or a promise of it: the hot paths answer from the read cache at once and only wait for the
 * store on a miss, so a request whose reads are cached takes no promise.
 */
export type MaybeLater<T> = T | Promise<T>;

/** Applies `next` to `value`: at once if it is here, else once it settles. */
export function whenReady<T, R>(value: MaybeLater<T>, next: (value: T) => MaybeLater<R>): MaybeLater<R> {
  return value instanceof Promise ? value.then(next) : next(value);
}
