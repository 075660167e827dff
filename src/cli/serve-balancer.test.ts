/** `serve --trust-proxy`, `--instance` and `--max-in-flight-per-account`: what a sandbox instance is told. */
import { describe, expect, it } from 'vitest';
import { serveOptions } from './serve.ts';

function parse(argv: string[], env: NodeJS.ProcessEnv = {}) {
  const parsed = serveOptions([...argv, '--no-control'], env);
  if (parsed === 'help') throw new Error('unexpected help');
  return parsed.options;
}

describe('serve --trust-proxy', () => {
  it('trusts no balancer by default', () => {
    expect(parse([]).settings.trustedProxies).toEqual([]);
  });

  it('takes comma-separated addresses, from the flag or TRYON_TRUST_PROXY', () => {
    expect(parse(['--trust-proxy', '127.0.0.1, ::1']).settings.trustedProxies).toEqual(['127.0.0.1', '::1']);
    expect(parse([], { TRYON_TRUST_PROXY: '10.0.0.2' }).settings.trustedProxies).toEqual(['10.0.0.2']);
  });

  it('refuses anything but IP addresses', () => {
    expect(() => parse(['--trust-proxy', 'balancer.internal'])).toThrow(/--trust-proxy takes IP addresses/);
    expect(() => parse(['--trust-proxy', '10.0.0.0/8'])).toThrow(/--trust-proxy/);
  });
});

describe('serve --instance', () => {
  it('names the instance in /healthz and /readyz', () => {
    expect(parse(['--instance', 'i2']).instance).toBe('i2');
    expect(parse([]).instance).toBeUndefined();
  });

  it('refuses a name with spaces or markup', () => {
    expect(() => parse(['--instance', 'a b'])).toThrow(/--instance/);
    expect(() => parse(['--instance', '<b>'])).toThrow(/--instance/);
  });
});

describe('serve --max-in-flight-per-account', () => {
  it("raises or lowers the cap on one account's requests in flight", () => {
    expect(parse([]).settings.maxInFlightPerAccount).toBe(256);
    expect(parse(['--max-in-flight-per-account', '4000']).settings.maxInFlightPerAccount).toBe(4000);
  });

  it('refuses 0 and anything but a whole number', () => {
    expect(() => parse(['--max-in-flight-per-account', '0'])).toThrow(/--max-in-flight-per-account/);
    expect(() => parse(['--max-in-flight-per-account', 'lots'])).toThrow(/--max-in-flight-per-account/);
  });
});

describe('serve --drain-ms', () => {
  it('does not drain by default, and takes a whole number of milliseconds', () => {
    const parsed = (argv: string[]) => {
      const result = serveOptions([...argv, '--no-control'], {});
      if (result === 'help') throw new Error('unexpected help');
      return result.drainMs;
    };
    expect(parsed([])).toBe(0);
    expect(parsed(['--drain-ms', '3000'])).toBe(3000);
    expect(() => parsed(['--drain-ms', '-5'])).toThrow(/--drain-ms/);
  });
});
