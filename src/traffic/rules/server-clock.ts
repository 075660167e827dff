/**
 * The least the server's clock can read at a given moment, from the times its answers name: test
 * control's clock moves and settings answer with the server's `now`. The clock runs at least as fast
 * as real time between those answers (a move only adds), so `now` plus the real time since is a
 * lower bound. Used to tell an uploaded id certainly past its `expiresAt`.
 */
export class ServerClock {
  #anchor: { readonly server: number; readonly wall: number } | undefined;
  /** When the clock last moved by test control (wall ms); never, before any move. */
  movedAt = Number.NEGATIVE_INFINITY;

  /** A server time `now` answered at `wall` (epoch ms each); `moved` when test control moved the clock. */
  saw(now: number, wall: number, moved: boolean): void {
    if (moved) this.movedAt = wall;
    const before = this.leastAt(wall);
    if (before === undefined || now > before) this.#anchor = { server: now, wall };
  }

  /** The least the server's clock read at `wall`, if any answer named its time before. */
  leastAt(wall: number): number | undefined {
    return this.#anchor === undefined ? undefined : this.#anchor.server + Math.max(0, wall - this.#anchor.wall);
  }
}
