/** `serve --trust-proxy` and `--instance`: what an instance behind the sandbox's balancer is told. */
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
