/**
 * Where the balance sits in a GET /account body. The spec leaves that body open ("Path parameters,
 * headers, response body shape, errors and limits of this endpoint: not shown"), so the run reads
 * the balance only where the user says it is (`--balance-path`, a JSON pointer or a dotted path), or
 * where one numeric field makes it unambiguous; otherwise it reads no balance at all and runs with a
 * pessimistic budget (spend-guard.ts).
 */
import type { Exchange } from '../client/exchange.ts';
import { maxJsonDepth, nestsDeeperThan } from '../shared/json-bounds.ts';

/** How the run reads balances: where, and whether the user said so or the run found it. */
export interface BalanceSource {
  /** A JSON pointer into the GET /account body (`/credits`, `/data/balance`). */
  readonly pointer: string;
  readonly how: 'given' | 'detected';
}

/** The run's decision: read balances from `source`, or none at all (`why` says why). */
export type BalanceDecision =
  | { readonly source: BalanceSource }
  | { readonly source?: undefined; readonly why: string };

/** Segments of a JSON pointer (`/a/b`, RFC 6901) or a dotted path (`a.b`); undefined when empty. */
export function parseBalancePath(path: string): string[] | undefined {
  const trimmed = path.trim();
  if (trimmed === '' || trimmed === '/') return undefined;
  const segments = trimmed.startsWith('/')
    ? trimmed
        .slice(1)
        .split('/')
        .map((s) => s.replaceAll('~1', '/').replaceAll('~0', '~'))
    : trimmed.split('.');
  return segments.some((s) => s === '') ? undefined : segments;
}

/** The JSON pointer of segments. */
export function pointerOf(segments: readonly string[]): string {
  return `/${segments.map((s) => s.replaceAll('~', '~0').replaceAll('/', '~1')).join('/')}`;
}

/** The value at `segments` in `json`, if any. */
export function valueAt(json: unknown, segments: readonly string[]): unknown {
  let at: unknown = json;
  for (const s of segments) {
    if (typeof at !== 'object' || at === null) return undefined;
    at = (at as Record<string, unknown>)[s];
  }
  return at;
}

/** The most numeric fields of GET /account the run lists; a body with more has no balance it can find by itself. */
export const maxNumericLeaves = 100;

interface Place {
  readonly key: string;
  readonly parent: Place | undefined;
}

const segmentsOf = (place: Place | undefined): string[] => {
  const segments: string[] = [];
  for (let at = place; at !== undefined; at = at.parent) segments.unshift(at.key);
  return segments;
};

/**
 * Every finite number in `json`, with where it sits, in document order: at most `maxNumericLeaves`
 * + 1 of them (so a caller can tell there are more), and none deeper than `maxJsonDepth` levels.
 * Iterative, so a body nested any depth cannot overflow the stack.
 */
export function numericLeaves(json: unknown): Array<{ readonly segments: string[]; readonly value: number }> {
  const leaves: Array<{ readonly segments: string[]; readonly value: number }> = [];
  type Step = { readonly value: unknown; readonly place: Place | undefined; readonly depth: number };
  const stack: Step[] = [{ value: json, place: undefined, depth: 0 }];
  for (let next = stack.pop(); next !== undefined && leaves.length <= maxNumericLeaves; next = stack.pop()) {
    const { value, place, depth } = next;
    if (typeof value === 'number' && Number.isFinite(value)) leaves.push({ segments: segmentsOf(place), value });
    if (typeof value !== 'object' || value === null || depth >= maxJsonDepth) continue;
    const children = Object.entries(value as Record<string, unknown>);
    for (let i = children.length - 1; i >= 0; i--) {
      const [key, child] = children[i] as [string, unknown];
      stack.push({ value: child, place: { key, parent: place }, depth: depth + 1 });
    }
  }
  return leaves;
}

/** The pointers of `leaves` for a message, cut at about 300 characters. */
function listed(leaves: ReadonlyArray<{ readonly segments: string[] }>): string {
  const text = leaves.map((l) => pointerOf(l.segments)).join(', ');
  return text.length > 300 ? `${text.slice(0, 300)}…` : text;
}

/**
 * Finds the balance in one GET /account body. With `expected` (a balance the run set through test
 * control), the one field holding that value; without it, the only numeric field, or else the only
 * one named like a balance (`credits`, `balance`, …). A body nested deeper than `maxJsonDepth`
 * levels, or with more than `maxNumericLeaves` numbers, has none the run reads.
 */
export function detectBalance(status: number | undefined, json: unknown, expected?: number): BalanceDecision {
  if (status !== 200) return { why: `GET /account answered ${status ?? 'nothing'}, not 200` };
  if (nestsDeeperThan(json, maxJsonDepth)) {
    return { why: `GET /account: the target answered a JSON body nested deeper than ${maxJsonDepth} levels` };
  }
  const leaves = numericLeaves(json);
  if (leaves.length > maxNumericLeaves) {
    return {
      why: `GET /account gave more than ${maxNumericLeaves} numeric fields; say which holds the balance with --balance-path`,
    };
  }
  if (expected !== undefined) {
    const holding = leaves.filter((l) => l.value === expected);
    if (holding.length === 1 && holding[0])
      return { source: { pointer: pointerOf(holding[0].segments), how: 'detected' } };
    return {
      why: `GET /account gave ${holding.length === 0 ? 'no field' : `${holding.length} fields`} holding the balance of ${expected} the run set`,
    };
  }
  if (leaves.length === 1 && leaves[0]) return { source: { pointer: pointerOf(leaves[0].segments), how: 'detected' } };
  const named = leaves.filter((l) => /credit|balance/i.test(l.segments[l.segments.length - 1] ?? ''));
  if (named.length === 1 && named[0]) return { source: { pointer: pointerOf(named[0].segments), how: 'detected' } };
  if (leaves.length === 0) return { why: 'GET /account gave no numeric field' };
  return {
    why: `GET /account gave ${leaves.length} numeric fields (${listed(leaves)}); say which with --balance-path`,
  };
}

/** The balance in one GET /account exchange, read at `source`; throws when there is none. */
export function balanceOf(ex: Exchange, source: BalanceSource): number {
  const segments = parseBalancePath(source.pointer) ?? [];
  const value = valueAt(ex.response?.json, segments);
  if (ex.response?.status === 200 && typeof value === 'number' && Number.isFinite(value)) return value;
  const unread = ex.response?.jsonUnread === undefined ? '' : `; ${ex.response.jsonUnread}`;
  throw new Error(
    `GET /account gave no balance at ${source.pointer} (${ex.response?.status ?? ex.error}${ex.response ? ` ${ex.response.text.slice(0, 120)}` : ''}${unread})`,
  );
}

/** One line for the run's output: which of the two budgets the run uses. */
export function describeBalance(decision: BalanceDecision): string {
  return decision.source
    ? `Balance: read from GET /account at ${decision.source.pointer} (${decision.source.how === 'given' ? 'given with --balance-path' : 'detected'})`
    : `Balance: not read (${decision.why}); pessimistic budget: every start that could be charged counts as spent, nothing is refunded`;
}

/** The balance path the user gave cannot be read: a setup problem, not a finding. */
export class BalanceSetupError extends Error {
  override readonly name = 'BalanceSetupError';
}

/** A balance the run sets on a probe account through test control, unlikely to sit in any other field. */
export const probeBalance = 7919;

/**
 * Decides how the run reads balances, with one GET /account: at the path the user gave (which must
 * then hold a number: BalanceSetupError otherwise), or where `detectBalance` finds it. With test
 * control, on a probe account whose balance the run sets first, so the field is found by its value.
 */
export async function decideBalance(
  send: (o: { method: string; path: string; key?: string; operationId?: string }) => Promise<Exchange>,
  o: {
    readonly balancePath?: string | undefined;
    readonly key?: string | undefined;
    readonly control?: ProbeControl | undefined;
  },
): Promise<BalanceDecision> {
  let key = o.key;
  let expected: number | undefined;
  if (o.control) {
    const probe = await o.control.createAccount();
    key = probe.apiKey;
    try {
      await o.control.setCredits(probe.accountId, probeBalance);
      expected = probeBalance;
    } catch {
      expected = probe.credits;
    }
  }
  if (key === undefined) return { why: 'no API key to read GET /account with' };
  const ex = await send({ method: 'GET', path: '/account', key, operationId: 'getAccount' });
  if (o.balancePath !== undefined) {
    const segments = parseBalancePath(o.balancePath);
    if (!segments)
      throw new BalanceSetupError(
        `--balance-path '${o.balancePath}' is neither a JSON pointer (/credits) nor a dotted path (data.credits)`,
      );
    const source: BalanceSource = { pointer: pointerOf(segments), how: 'given' };
    try {
      balanceOf(ex, source);
    } catch (error) {
      throw new BalanceSetupError(
        `the balance path ${source.pointer} (--balance-path) holds no number: ${(error as Error).message}`,
      );
    }
    return { source };
  }
  // A body past the runner's bounds (json-bounds.ts) is not read: say so rather than "no numeric field".
  const unread = ex.response?.status === 200 ? ex.response.jsonUnread : undefined;
  if (unread !== undefined) return { why: `GET /account: ${unread}` };
  return detectBalance(ex.response?.status, ex.response?.json, expected);
}

/** What balance detection needs of test control. */
export interface ProbeControl {
  createAccount(): Promise<{ accountId: string; apiKey: string; credits: number }>;
  setCredits(accountId: string, credits: number): Promise<void>;
}
