/** Where the runner may send: the target's origin and the configured ones, nothing a target names elsewhere. */
import { describe, expect, it } from 'vitest';
import { refusalOf, targetOrigins } from './origin-guard.ts';

const origins = targetOrigins('https://api.example.test/api/v1', [
  'http://127.0.0.1:7000/_control',
  undefined,
  'embedded',
]);

describe('refusalOf', () => {
  it.each([
    ['the target, under its base', 'https://api.example.test/api/v1/account'],
    ['the target, outside its base (a result image)', 'https://api.example.test/i/abc.png'],
    ['the target, its default port written out', 'https://api.example.test:443/i/abc.png'],
    ['the configured test control', 'http://127.0.0.1:7000/_control/settings'],
  ])('sends to %s', (_name, url) => {
    expect(refusalOf(url, origins)).toBeUndefined();
  });

  it.each([
    ['another host', 'https://metadata.example.test/latest'],
    ['a cloud metadata address', 'http://169.254.169.254/latest/meta-data/'],
    ['another port of the target host', 'https://api.example.test:8443/i/abc.png'],
    ['another scheme on the target host', 'http://api.example.test/i/abc.png'],
    ['the target origin followed by userinfo', 'https://api.example.test@evil.example.test/i/abc.png'],
    ['a host that starts like the target', 'https://api.example.test.evil.example.test/i/abc.png'],
    ['a scheme-relative URL made absolute', 'https://evil.example.test//api.example.test/i/x'],
  ])('refuses %s, naming the URL and where the runner sends', (_name, url) => {
    const where = 'https://api.example.test, http://127.0.0.1:7000';
    expect(refusalOf(url, origins)).toBe(
      `refused: ${url} is outside the target's origin (${where}); the runner sends nothing there, and nothing was sent`,
    );
  });

  it.each(['/i/abc.png', 'not a url', 'file:///etc/passwd', 'javascript:alert(1)'])(
    'refuses %j, which is no URL the runner sends to',
    (url) => {
      expect(refusalOf(url, origins)).toBe(`refused: ${url} is not a URL the runner can send to; nothing was sent`);
    },
  );

  it('cuts a long URL in its message', () => {
    const url = `https://evil.example.test/${'a'.repeat(1000)}`;
    expect(refusalOf(url, origins)).toContain(`${url.slice(0, 300)}… is outside`);
  });
});
