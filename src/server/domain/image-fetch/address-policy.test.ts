import { describe, expect, it } from 'vitest';
import { addressRange, isLoopback, isPublicUnicast } from './address-policy.ts';

describe('isPublicUnicast', () => {
  const rows: [string, { ip: string; want: boolean; range: string }][] = [
    ['public IPv4', { ip: '93.184.216.34', want: true, range: 'unicast' }],
    ['public IPv6 in 2000::/3', { ip: '2606:4700::1111', want: true, range: 'unicast' }],
    ['IPv4-mapped public IPv4', { ip: '::ffff:93.184.216.34', want: true, range: 'unicast' }],
    ['loopback', { ip: '127.0.0.1', want: false, range: 'loopback' }],
    ['loopback, far end of /8', { ip: '127.255.255.254', want: false, range: 'loopback' }],
    ['RFC 1918', { ip: '172.20.1.1', want: false, range: 'private' }],
    ['link-local (cloud metadata)', { ip: '169.254.169.254', want: false, range: 'linkLocal' }],
    ['CGNAT', { ip: '100.64.0.1', want: false, range: 'carrierGradeNat' }],
    ['documentation TEST-NET-3', { ip: '203.0.113.7', want: false, range: 'reserved' }],
    ['IPv4-mapped private', { ip: '::ffff:10.0.0.1', want: false, range: 'private' }],
    ['IPv4-mapped loopback, hex form', { ip: '::ffff:7f00:1', want: false, range: 'loopback' }],
    ['IPv4-compatible loopback (ipaddr.js says unicast)', { ip: '::127.0.0.1', want: false, range: 'reserved' }],
    ['IPv6 outside 2000::/3', { ip: '4000::1', want: false, range: 'reserved' }],
    ['NAT64 of a public IPv4', { ip: '64:ff9b::808:808', want: false, range: 'rfc6052' }],
    ['NAT64 of loopback', { ip: '64:ff9b::7f00:1', want: false, range: 'rfc6052' }],
    ['local-use NAT64 (RFC 8215) of a private IPv4', { ip: '64:ff9b:1::a00:1', want: false, range: 'rfc6052' }],
    ['local-use NAT64 of a public IPv4', { ip: '64:ff9b:1:5db8:d8:2200::', want: false, range: 'rfc6052' }],
    ['IPv4-translated (SIIT) loopback', { ip: '::ffff:0:7f00:1', want: false, range: 'rfc6145' }],
    ['IPv4-translated, dotted', { ip: '::ffff:0:10.0.0.1', want: false, range: 'rfc6145' }],
    ['IPv4-compatible metadata, hex form', { ip: '::a9fe:a9fe', want: false, range: 'reserved' }],
    ['6to4 of loopback', { ip: '2002:7f00:1::', want: false, range: '6to4' }],
    ['Teredo with client 127.0.0.1', { ip: '2001:0:4136:e378:8000:63bf:80ff:fffe', want: false, range: 'teredo' }],
    ['6to4 of a public IPv4', { ip: '2002:808:808::1', want: false, range: '6to4' }],
    ['Teredo', { ip: '2001:0:4136:e378:8000:63bf:3fff:fdd2', want: false, range: 'teredo' }],
    ['site-local (deprecated)', { ip: 'fec0::1', want: false, range: 'deprecatedSiteLocal' }],
    ['lenient ipaddr.js form 2130706433', { ip: '2130706433', want: false, range: 'invalid' }],
    ['lenient ipaddr.js form 0x7f.1', { ip: '0x7f.1', want: false, range: 'invalid' }],
    ['zone id', { ip: 'fe80::1%eth0', want: false, range: 'linkLocal' }],
    ['a name', { ip: 'example.com', want: false, range: 'invalid' }],
    ['empty', { ip: '', want: false, range: 'invalid' }],
  ];
  it.each(rows)('%s', (_name, { ip, want, range }) => {
    expect(isPublicUnicast(ip)).toBe(want);
    expect(addressRange(ip)).toBe(range);
  });
});

describe('isLoopback', () => {
  const rows: [string, boolean][] = [
    ['127.0.0.1', true],
    ['127.8.9.10', true],
    ['::1', true],
    ['::ffff:127.0.0.1', true],
    ['::ffff:7f00:1', true],
    ['0.0.0.0', false],
    ['::', false],
    ['10.0.0.1', false],
    ['93.184.216.34', false],
    ['::127.0.0.1', false],
    ['2130706433', false],
    ['localhost', false],
  ];
  it.each(rows)('%s → %s', (ip, want) => {
    expect(isLoopback(ip)).toBe(want);
  });
});
