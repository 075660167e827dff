/**
 * The try-ons the traffic saw started, by id: the account that started each (as the key book names
 * it), the key it used and when the start's answer ended. A start answered with an id seen before
 * is a replay ("Reusing an Idempotency-Key returns the earlier try-on"), whose body the server may
 * not have read again, so rules that judge a start by its body leave replays alone. Bounded.
 */
import { CappedMap } from '../capped-map.ts';
import type { AccountDigest } from '../traffic-exchange.ts';
import { startedTryOn, type TrafficView } from '../traffic-view.ts';

export interface StartSeen {
  readonly account: AccountDigest;
  readonly key: AccountDigest;
  readonly endedAt: number;
}

export class SeenStarts {
  readonly #ids: CappedMap<string, StartSeen>;

  constructor(cap: number) {
    this.#ids = new CappedMap(cap);
  }

  /** The first start that named `id`, if it was seen and kept. */
  of(id: string): StartSeen | undefined {
    return this.#ids.get(id);
  }

  /** Whether `v` is a start answered with a try-on an earlier start already named. */
  isReplay(v: TrafficView): boolean {
    const id = startedTryOn(v)?.id;
    return id !== undefined && this.#ids.get(id) !== undefined;
  }

  /** Notes the try-on `v` started, if it is a start answered with one not seen before. */
  note(v: TrafficView): void {
    const id = startedTryOn(v)?.id;
    if (id === undefined || v.te.account === 'none' || this.#ids.get(id) !== undefined) return;
    this.#ids.set(id, { account: v.te.account, key: v.key, endedAt: v.te.endedAt });
  }

  get evicted(): number {
    return this.#ids.evicted;
  }
}
