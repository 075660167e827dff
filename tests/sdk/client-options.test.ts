/**
 * The client's options at construction: each out-of-range value is a RangeError naming the option
 * and the rule it comes from, each bound itself is accepted, and the errors the client throws carry
 * their name, code and a sentence a log reader can act on.
 */
import { describe, expect, it } from 'vitest';
import {
  TryOnAbortedError,
  TryOnClient,
  TryOnGaveUpError,
  TryOnInBrowserError,
  type TryOnClientOptions,
} from '../../src/sdk/index.ts';

const base = 'http://127.0.0.1:9/api/v1';
const apiKey = 'vto_live_OptionsKey_0123456789';
const construct = (extra: Partial<TryOnClientOptions>) => () => new TryOnClient({ baseUrl: base, apiKey, ...extra });
const maxTimer = 2 ** 31 - 1;

describe('refused at construction, with the option named', () => {
  it.each<[string, Partial<TryOnClientOptions>, RegExp]>([
    ['an ftp baseUrl', { baseUrl: 'ftp://127.0.0.1/api/v1' }, /baseUrl must be an http\(s\) URL, got ftp:/],
    [
      'a baseUrl with a password only',
      { baseUrl: 'http://:pw@127.0.0.1:9/api/v1' },
      /baseUrl must have no credentials/,
    ],
    ['a baseUrl with a user only', { baseUrl: 'http://u@127.0.0.1:9/api/v1' }, /baseUrl must have no credentials/],
    ['a baseUrl with a fragment', { baseUrl: `${base}#x` }, /no credentials, query or fragment/],
    ['a baseUrl with a query', { baseUrl: `${base}?key=1` }, /no credentials, query or fragment/],
    ['a baseUrl ending in a bare ?', { baseUrl: `${base}?` }, /no credentials, query or fragment/],
    ['a baseUrl ending in a bare #', { baseUrl: `${base}#` }, /no credentials, query or fragment/],
    ['an empty key', { apiKey: '' }, /apiKey is required/],
    ['a blank key', { apiKey: '   ' }, /apiKey is required/],
    ['a requestTimeoutMs of 0', { requestTimeoutMs: 0 }, /requestTimeoutMs must be 1 to 2147483647/],
    ['a requestTimeoutMs of 1.5', { requestTimeoutMs: 1.5 }, /requestTimeoutMs must be 1 to/],
    ['a requestTimeoutMs past a timer', { requestTimeoutMs: maxTimer + 1 }, /requestTimeoutMs must be 1 to/],
    ['a syncTimeoutMs past a timer', { syncTimeoutMs: maxTimer + 1 }, /syncTimeoutMs must be 1 to/],
    ['a syncTimeoutMs under 70 s', { syncTimeoutMs: 69_999 }, /at least 70000 .*at least 70 seconds/],
    ['a pollIntervalMs of 1999', { pollIntervalMs: 1_999 }, /pollIntervalMs must be from 2000 to 3000 .*2-3 seconds/],
    ['a pollIntervalMs of 3001', { pollIntervalMs: 3_001 }, /pollIntervalMs must be from 2000 to 3000/],
    ['a giveUpAfterMs of 59999', { giveUpAfterMs: 59_999 }, /giveUpAfterMs must be from 1 to 15 minutes .*few minutes/],
    ['a giveUpAfterMs over 15 min', { giveUpAfterMs: 15 * 60_000 + 1 }, /giveUpAfterMs must be from 1 to 15 minutes/],
    ['a maxRetries of 6', { maxRetries: 6 }, /maxRetries must be an integer from 0 to 5 .*few attempts/],
    ['a maxRetries of -1', { maxRetries: -1 }, /maxRetries must be an integer from 0 to 5/],
    ['a maxRetries of 1.5', { maxRetries: 1.5 }, /maxRetries must be an integer/],
    ['a maxRetryAfterMs of -1', { maxRetryAfterMs: -1 }, /maxRetryAfterMs must be an integer from 0 to 2147483647/],
    ['a maxRetryAfterMs past a timer', { maxRetryAfterMs: maxTimer + 1 }, /maxRetryAfterMs must be an integer/],
  ])('%s', (_name, options, message) => {
    expect(construct(options)).toThrow(RangeError);
    expect(construct(options)).toThrow(message);
  });

  it('a key that is not a string', () => {
    expect(construct({ apiKey: 42 as unknown as string })).toThrow(/apiKey is required/);
  });
});

describe('each bound is accepted', () => {
  it.each<Partial<TryOnClientOptions>>([
    { baseUrl: 'https://api.example.test/api/v1' },
    { requestTimeoutMs: 1 },
    { requestTimeoutMs: maxTimer },
    { syncTimeoutMs: 70_000 },
    { syncTimeoutMs: maxTimer },
    { pollIntervalMs: 2_000 },
    { pollIntervalMs: 3_000 },
    { giveUpAfterMs: 60_000 },
    { giveUpAfterMs: 15 * 60_000 },
    { maxRetries: 0 },
    { maxRetries: 5 },
    { maxRetryAfterMs: 0 },
    { maxRetryAfterMs: maxTimer },
  ])('%o', (options) => {
    expect(construct(options)()).toBeInstanceOf(TryOnClient);
  });
});

describe("the client's own errors", () => {
  it('each has its name, its code and a sentence', () => {
    const gaveUp = new TryOnGaveUpError('tr_9', 299_600);
    expect(gaveUp).toMatchObject({
      name: 'TryOnGaveUpError',
      code: 'CLIENT_GAVE_UP',
      tryOnId: 'tr_9',
      waitedMs: 299_600,
    });
    expect(gaveUp.message).toBe(
      'try-on tr_9 was still pending after 300 s of polling; it keeps running, read it later with getTryOn',
    );
    const aborted = new TryOnAbortedError('why');
    expect(aborted).toMatchObject({ name: 'TryOnAbortedError', code: 'CLIENT_ABORTED', cause: 'why' });
    expect(aborted.message).toBe('the call was aborted by its AbortSignal');
    const browser = new TryOnInBrowserError();
    expect(browser).toMatchObject({ name: 'TryOnInBrowserError', code: 'CLIENT_IN_BROWSER' });
    expect(browser.message).toContain('the API key must never reach a browser');
  });
});
