/**
 * Which key digests belong to which account, as test-control answers show it (spec: Authentication,
 * "One active key per account"; "image ids and try-ons are scoped to the account of the key"). An
 * account made or given a new key by test control is named in the traffic by the digest of its first
 * key, so every rule that keeps state "per account" keeps it per account, not per key; a key replaced
 * or revoked is retired from the end of that answer. Keys no control answer tied stay their own
 * account (a rotation outside the traffic cannot be seen). Only digests are kept, never a key.
 */
import { CappedMap } from '../capped-map.ts';
import type { AccountDigest } from '../traffic-exchange.ts';
import type { ControlCall } from './control-calls.ts';

/** How a key stopped being the account's active key, and when (epoch ms, the end of that answer). */
export interface Retirement {
  readonly how: 'revoked' | 'rotated';
  readonly at: number;
}

interface KeyFacts {
  readonly accountId: string;
  retired?: Retirement;
}

interface AccountFacts {
  /** The digest that names the account: its first key's. */
  readonly first: AccountDigest;
  /** Its active key's digest; none once revoked. */
  current?: AccountDigest;
}

export class KeyBook {
  readonly #keys: CappedMap<AccountDigest, KeyFacts>;
  readonly #accounts: CappedMap<string, AccountFacts>;

  constructor(accounts: number) {
    this.#accounts = new CappedMap(accounts);
    this.#keys = new CappedMap(accounts * 4);
  }

  /** Learns from a control call answered at `at` (epoch ms). */
  learn(call: ControlCall, at: number): void {
    if (call.kind === 'made') {
      this.#accounts.set(call.accountId, { first: call.key, current: call.key });
      this.#keys.set(call.key, { accountId: call.accountId });
      return;
    }
    if (call.kind !== 'rotated' && call.kind !== 'revoked') return;
    const account = this.#accounts.get(call.accountId);
    const previous = account?.current === undefined ? undefined : this.#keys.get(account.current);
    if (previous !== undefined && previous.retired === undefined)
      previous.retired = { how: call.kind === 'revoked' ? 'revoked' : 'rotated', at };
    if (call.kind === 'revoked') {
      if (account !== undefined) delete account.current;
      return;
    }
    const named = account ?? { first: call.key };
    named.current = call.key;
    this.#accounts.set(call.accountId, named);
    this.#keys.set(call.key, { accountId: call.accountId });
  }

  /** The digest naming the account of `key`: its first key's when control tied them, else `key` itself. */
  accountOf(key: AccountDigest): AccountDigest {
    const facts = this.#keys.get(key);
    return facts === undefined ? key : (this.#accounts.get(facts.accountId)?.first ?? key);
  }

  /** The digest naming the account control calls `accountId`, if a control answer handed out its key. */
  accountNamed(accountId: string): AccountDigest | undefined {
    return this.#accounts.get(accountId)?.first;
  }

  /** Whether a control answer tied `key` to its account. */
  tied(key: AccountDigest): boolean {
    return this.#keys.get(key) !== undefined;
  }

  /** When and how `key` stopped being active, if it did. */
  retired(key: AccountDigest): Retirement | undefined {
    return this.#keys.get(key)?.retired;
  }

  /** Accounts and keys let go past the caps. */
  get evicted(): number {
    return this.#accounts.evicted + this.#keys.evicted;
  }
}
