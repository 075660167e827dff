/**
 * One exchange of live traffic, as the proxy saw it or a recording holds it: the unit that passive
 * judgement (the server's side) and the client grader (the client's side) both read. The API key is
 * never kept: `account` is a digest of it, and the recorded headers carry it redacted.
 */
import { createHash } from 'node:crypto';
import type { Answered, Exchange } from '../client/exchange.ts';

export interface TrafficExchange {
  /**
   * The request and its answer, in the shape the suite's per-exchange checks read; secrets redacted.
   * No `response` when the client went away before any answer came (then `dropped` is true).
   */
  readonly exchange: Exchange;
  /** `key:` and the first 16 hex digits of sha256 of the bearer key, or `none` when the request had no key. */
  readonly account: string;
  /** Who sent it: the client's address as the proxy saw it (a recording may leave it out). */
  readonly client?: string;
  /** Wall-clock milliseconds (epoch) when the request's first byte arrived and when the answer ended. */
  readonly startedAt: number;
  readonly endedAt: number;
  /** The client went away before the whole answer was sent. */
  readonly dropped?: boolean;
  /**
   * Bodies the proxy saw only in part: the request's or the answer's bytes past the capture bound were
   * passed on unseen (a rule that needs the whole body treats this exchange as not exercising it).
   */
  readonly partial?: { readonly request: boolean; readonly response: boolean };
}

/** An exchange of traffic that got an answer. */
export type AnsweredTraffic = TrafficExchange & { readonly exchange: Answered };

/** Whether the exchange got an answer (the client may have dropped it before any came). */
export function isAnswered(te: TrafficExchange): te is AnsweredTraffic {
  return te.exchange.response !== undefined;
}

/** The digest that names an account in traffic: never the key itself. */
export type AccountDigest = string;

/** Digests of the latest Authorization values seen: traffic repeats a few keys, a sha256 each time is waste. */
const recentDigests = new Map<string, AccountDigest>();
const recentDigestsMax = 256;

/** The account digest of a request's Authorization header (`Bearer <key>`), or `none` without one. */
export function accountOf(authorization: string | undefined): AccountDigest {
  if (authorization === undefined) return 'none';
  const known = recentDigests.get(authorization);
  if (known !== undefined) return known;
  const key = /^Bearer\s+(\S+)\s*$/i.exec(authorization)?.[1];
  const digest = key === undefined ? 'none' : `key:${createHash('sha256').update(key).digest('hex').slice(0, 16)}`;
  if (authorization.length <= 1024) {
    if (recentDigests.size >= recentDigestsMax) recentDigests.clear();
    recentDigests.set(authorization, digest);
  }
  return digest;
}
