/** A result URL is fetched only on the target's own origin; elsewhere it is a finding, never a request. */
import { describe, expect, it } from 'vitest';
import type { Exchange } from '../client/exchange.ts';
import type { ConformanceContext } from './conformance.ts';
import { fetchResult } from './result-image.ts';
import { Inconclusive, RuleBroken, must } from './rules.ts';

/** A context whose target is at `origin`, recording what it sends. */
function context(origin: string): { readonly t: ConformanceContext; readonly sent: string[] } {
  const sent: string[] = [];
  const send = async (o: { path: string }): Promise<Exchange> => {
    sent.push(o.path);
    return { seq: 1, request: { method: 'GET', url: o.path, headers: {} }, error: 'not sent in this test' };
  };
  const t = {
    target: { origin, send },
    must,
    inconclusive: (reason: string): never => {
      throw new Inconclusive(reason);
    },
  } as unknown as ConformanceContext;
  return { t, sent };
}

const caught = async (p: Promise<unknown>): Promise<unknown> =>
  p.then(
    () => undefined,
    (error: unknown) => error,
  );

describe('fetchResult', () => {
  it('fetches a result URL on the target origin, without a key', async () => {
    const { t, sent } = context('https://api.example.test');
    await fetchResult(t, 'https://api.example.test/i/r.png');
    expect(sent).toEqual(['https://api.example.test/i/r.png']);
  });

  it.each([
    ['another host', 'http://169.254.169.254/i/r.png'],
    ['another port', 'https://api.example.test:8443/i/r.png'],
    ['the target origin followed by userinfo', 'https://api.example.test@evil.example.test/i/r.png'],
    ['no absolute URL', '/i/r.png'],
  ])('fails RES-RESULT-URL-HOST-AND-PATH on %s, with the URL, and fetches nothing', async (_name, url) => {
    const { t, sent } = context('https://api.example.test');
    const error = await caught(fetchResult(t, url));
    expect(error).toBeInstanceOf(RuleBroken);
    const seen = { requirement: (error as RuleBroken).requirement, names: (error as Error).message.includes(url) };
    expect(seen).toEqual({ requirement: 'RES-RESULT-URL-HOST-AND-PATH', names: true });
    expect(sent).toEqual([]);
  });

  it('is inconclusive on the API host under another scheme (the spec names the host only), and fetches nothing', async () => {
    const { t, sent } = context('https://api.example.test');
    const error = await caught(fetchResult(t, 'http://api.example.test/i/r.png'));
    expect(error).toBeInstanceOf(Inconclusive);
    expect((error as Error).message).toBe(
      "resultUrl http://api.example.test/i/r.png is not on the target's origin https://api.example.test; the runner fetches nothing outside it",
    );
    expect(sent).toEqual([]);
  });
});
