import ipaddr from 'ipaddr.js';
import { describe, expect, it } from 'vitest';
import { isPublicUnicast } from './address-policy.ts';
import { staticResolver } from './resolver.ts';
import { TestNames, isTestNameAnswer, maxTestNames, testName, testNameAnswerRanges } from './test-names.ts';

describe('testName', () => {
  it.each([
    ['a name under .test', 'img.test', 'img.test'],
    ['a deeper name, upper case, trailing dot', 'CDN.Img-1.Test.', 'cdn.img-1.test'],
  ])('accepts %s', (_why, raw, want) => expect(testName(raw)).toBe(want));

  it.each([
    ['.test itself', 'test'],
    ['another zone', 'img.example.com'],
    ['.testing', 'img.testing'],
    ['.localhost', 'img.localhost'],
    ['an empty label', 'a..test'],
    ['a label starting with a hyphen', '-a.test'],
    ['a space', 'a b.test'],
    ['an underscore', 'a_b.test'],
    ['a label of 64 characters', `${'a'.repeat(64)}.test`],
    ['an IP literal', '127.0.0.1'],
  ])('refuses %s', (_why, raw) => expect(testName(raw)).toBeUndefined());
});

describe('isTestNameAnswer', () => {
  it('never allows what the image-URL address policy lets through: every range, first and last address, is refused by it', () => {
    for (const cidr of testNameAnswerRanges) {
      const [range, bits] = ipaddr.parseCIDR(cidr);
      const first = ipaddr.fromByteArray(range.toByteArray().map((b, i) => (i * 8 < bits ? b : 0))).toString();
      const last = range.kind() === 'ipv4' ? ipaddr.IPv4.broadcastAddressFromCIDR(cidr).toString() : first;
      for (const ip of [first, last]) {
        expect({ cidr, ip, allowed: isTestNameAnswer(ip), publicUnicast: isPublicUnicast(ip) }).toEqual({
          cidr,
          ip,
          allowed: true,
          publicUnicast: false,
        });
      }
    }
  });

  it.each([
    '127.0.0.1',
    '10.0.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '255.255.255.255',
    '192.0.2.10',
    '198.51.100.7',
    '203.0.113.9',
    '::1',
    '::',
    'fe80::1',
    'fd00::1',
    'ff02::1',
    '2001:db8::1',
    '::ffff:10.0.0.1',
    '::ffff:7f00:1',
    '::ffff:0:7f00:1',
    '::7f00:1',
    '64:ff9b::7f00:1',
    '64:ff9b::a00:1',
    '64:ff9b:1::a00:1',
    '2002:a9fe:a9fe::1',
    '2001:0:4136:e378:8000:63bf:80ff:fffe',
  ])('allows %s', (ip) => expect(isTestNameAnswer(ip)).toBe(true));

  it.each([
    '93.184.216.34',
    '8.8.8.8',
    '2606:4700::1111',
    '::ffff:93.184.216.34',
    '64:ff9b::5db8:d822',
    '2002:5db8:d822::1',
    '2001:0:4136:e378:8000:63bf:a247:27dd',
    '::ffff:0:808:808',
    '::808:808',
    'localhost',
    '127.1',
    '2130706433',
    '',
  ])('refuses %s (public, an address that embeds a public one, or not a plainly written address)', (ip) =>
    expect(isTestNameAnswer(ip)).toBe(false),
  );
});

describe('TestNames', () => {
  it('answers a set name before the fallback, case-insensitively, and leaves other names to the fallback', async () => {
    const names = new TestNames();
    names.set('img.test', ['10.0.0.1', '::1']);
    const resolve = names.resolver(staticResolver({ 'other.test': ['127.0.0.2'], 'img.test': ['127.0.0.3'] }));
    await expect(resolve('IMG.test.')).resolves.toEqual(['10.0.0.1', '::1']);
    await expect(resolve('other.test')).resolves.toEqual(['127.0.0.2']);
    await expect(resolve('unknown.test')).rejects.toMatchObject({ code: 'ENOTFOUND' });
  });

  it('replaces a name, and forgets the oldest past the bound', () => {
    const names = new TestNames();
    names.set('first.test', ['10.0.0.1']);
    names.set('first.test', ['10.0.0.2']);
    expect(names.get('first.test')).toEqual(['10.0.0.2']);
    for (let i = 0; i < maxTestNames; i++) names.set(`n${i}.test`, ['10.0.0.1']);
    expect(names.get('first.test')).toBeUndefined();
    expect(names.get(`n${maxTestNames - 1}.test`)).toEqual(['10.0.0.1']);
  });
});
