import { describe, expect, it } from 'vitest';
import type { OpenSocket } from './guarded-connector.ts';
import { createImageFetcher, loopbackOnlyGuard } from './image-fetcher.ts';
import { staticResolver } from './resolver.ts';

// Spec "POST /tryons" rule 2 and Errors INVALID_IMAGE_URL: every row is refused before any socket.
// Nothing listens on the trusted origin: a row that leaked past the rules would fail, not fetch.
const trustedOrigin = { origin: 'https://127.0.0.1:8443', ca: 'unused' };

const resolver = staticResolver({
  'private.example.com': ['10.0.0.5'],
  'mixed.example.com': ['93.184.216.34', '10.0.0.5'],
  'mixed-private-first.example.com': ['192.168.0.10', '93.184.216.34'],
  'loopback6.example.com': ['::1'],
  'mapped.example.com': ['::ffff:127.0.0.1'],
  'metadata.example.com': ['169.254.169.254'],
  'nat64.example.com': ['64:ff9b::a00:1'],
  'nat64-local.example.com': ['64:ff9b:1::7f00:1'],
  'siit.example.com': ['::ffff:0:a9fe:a9fe'],
  'teredo.example.com': ['2001:0:4136:e378:8000:63bf:80ff:fffe'],
  'unspecified.example.com': ['0.0.0.0'],
  'ula.example.com': ['fd00::1'],
});

const neverOpen: OpenSocket = (options) => {
  throw new Error(`SSRF row reached a socket to ${String(options.host)}`);
};

/** [behaviour, URL, resolver calls the row may make]. */
const rows: [string, string, 0 | 1][] = [
  ['not a URL', 'not a url', 0],
  ['a relative reference', '/f/a.jpg', 0],
  ['http: scheme', 'http://images.example.com/a.jpg', 0],
  ['ftp: scheme', 'ftp://images.example.com/a.jpg', 0],
  ['data: URL', 'data:image/png;base64,iVBORw0KGgo=', 0],
  ['custom port :8443', 'https://images.example.com:8443/a.jpg', 0],
  ['custom port :80', 'https://images.example.com:80/a.jpg', 0],
  ['custom port :444', 'https://images.example.com:444/a.jpg', 0],
  ['userinfo user:pass@', 'https://user:pass@images.example.com/a.jpg', 0],
  ['userinfo user@', 'https://user@images.example.com/a.jpg', 0],
  ['0.0.0.0', 'https://0.0.0.0/a.jpg', 0],
  ['0 (unspecified, short)', 'https://0/a.jpg', 0],
  ['127.0.0.1', 'https://127.0.0.1/a.jpg', 0],
  ['127.1 (short form)', 'https://127.1/a.jpg', 0],
  ['2130706433 (decimal)', 'https://2130706433/a.jpg', 0],
  ['0x7f000001 (hex)', 'https://0x7f000001/a.jpg', 0],
  ['0x7f.0.0.1 (hex octet)', 'https://0x7f.0.0.1/a.jpg', 0],
  ['0177.0.0.1 (octal octet)', 'https://0177.0.0.1/a.jpg', 0],
  ['017700000001 (octal)', 'https://017700000001/a.jpg', 0],
  ['127.0.0.1. (trailing dot)', 'https://127.0.0.1./a.jpg', 0],
  ['%31%32%37.0.0.1 (percent-encoded)', 'https://%31%32%37.0.0.1/a.jpg', 0],
  ['１２７.0.0.1 (full-width digits)', 'https://１２７.0.0.1/a.jpg', 0],
  ['10.0.0.1', 'https://10.0.0.1/a.jpg', 0],
  ['10.1 (short private)', 'https://10.1/a.jpg', 0],
  ['172.16.0.1', 'https://172.16.0.1/a.jpg', 0],
  ['172.31.255.255', 'https://172.31.255.255/a.jpg', 0],
  ['192.168.1.1', 'https://192.168.1.1/a.jpg', 0],
  ['169.254.169.254 (cloud metadata)', 'https://169.254.169.254/latest/meta-data/', 0],
  ['100.64.0.1 (CGNAT)', 'https://100.64.0.1/a.jpg', 0],
  ['198.18.0.1 (benchmarking)', 'https://198.18.0.1/a.jpg', 0],
  ['192.0.2.1 (documentation)', 'https://192.0.2.1/a.jpg', 0],
  ['224.0.0.1 (multicast)', 'https://224.0.0.1/a.jpg', 0],
  ['255.255.255.255 (broadcast)', 'https://255.255.255.255/a.jpg', 0],
  ['240.0.0.1 (reserved)', 'https://240.0.0.1/a.jpg', 0],
  ['[::] (unspecified)', 'https://[::]/a.jpg', 0],
  ['[::1] (loopback)', 'https://[::1]/a.jpg', 0],
  ['[::ffff:127.0.0.1] (IPv4-mapped)', 'https://[::ffff:127.0.0.1]/a.jpg', 0],
  ['[::ffff:7f00:1] (IPv4-mapped, hex)', 'https://[::ffff:7f00:1]/a.jpg', 0],
  ['[::ffff:10.0.0.1] (IPv4-mapped private)', 'https://[::ffff:10.0.0.1]/a.jpg', 0],
  ['[::ffff:169.254.169.254] (IPv4-mapped metadata)', 'https://[::ffff:169.254.169.254]/a.jpg', 0],
  ['[::127.0.0.1] (IPv4-compatible)', 'https://[::127.0.0.1]/a.jpg', 0],
  ['[fe80::1] (link-local)', 'https://[fe80::1]/a.jpg', 0],
  ['[fec0::1] (site-local)', 'https://[fec0::1]/a.jpg', 0],
  ['[fc00::1] (unique local)', 'https://[fc00::1]/a.jpg', 0],
  ['[fd12:3456::1] (unique local)', 'https://[fd12:3456::1]/a.jpg', 0],
  ['[ff02::1] (multicast)', 'https://[ff02::1]/a.jpg', 0],
  ['[64:ff9b::a00:1] (NAT64 of 10.0.0.1)', 'https://[64:ff9b::a00:1]/a.jpg', 0],
  ['[64:ff9b::7f00:1] (NAT64 of 127.0.0.1)', 'https://[64:ff9b::7f00:1]/a.jpg', 0],
  ['[64:ff9b:1::7f00:1] (local-use NAT64 of 127.0.0.1)', 'https://[64:ff9b:1::7f00:1]/a.jpg', 0],
  ['[64:ff9b::169.254.169.254] (NAT64, dotted)', 'https://[64:ff9b::169.254.169.254]/a.jpg', 0],
  ['[::ffff:0:7f00:1] (IPv4-translated loopback)', 'https://[::ffff:0:7f00:1]/a.jpg', 0],
  ['[::7f00:1] (IPv4-compatible, hex)', 'https://[::7f00:1]/a.jpg', 0],
  [
    '[2001:0:4136:e378:8000:63bf:80ff:fffe] (Teredo, client 127.0.0.1)',
    'https://[2001:0:4136:e378:8000:63bf:80ff:fffe]/a.jpg',
    0,
  ],
  ['[2002:a00:1::] (6to4 of 10.0.0.1)', 'https://[2002:a00:1::]/a.jpg', 0],
  ['[2002:7f00:1::] (6to4 of 127.0.0.1)', 'https://[2002:7f00:1::]/a.jpg', 0],
  ['[2001:0:4136:e378:8000:63bf:3fff:fdd2] (Teredo)', 'https://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/a.jpg', 0],
  ['[2001:db8::1] (documentation)', 'https://[2001:db8::1]/a.jpg', 0],
  ['localhost', 'https://localhost/a.jpg', 0],
  ['LOCALHOST. (case, trailing dot)', 'https://LOCALHOST./a.jpg', 0],
  ['%6c%6f%63%61%6c%68%6f%73%74 (percent-encoded localhost)', 'https://%6c%6f%63%61%6c%68%6f%73%74/a.jpg', 0],
  ['foo.localhost', 'https://foo.localhost/a.jpg', 0],
  ['printer.local (mDNS)', 'https://printer.local/a.jpg', 0],
  ['db.internal', 'https://db.internal/a.jpg', 0],
  ['nas.home.arpa', 'https://nas.home.arpa/a.jpg', 0],
  ['intranet (single label)', 'https://intranet/a.jpg', 0],
  ['a..b.example (empty label)', 'https://a..b.example/a.jpg', 0],
  ['a name resolving to 10.0.0.5', 'https://private.example.com/a.jpg', 1],
  ['a name resolving to [public, private]', 'https://mixed.example.com/a.jpg', 1],
  ['a name resolving to [private, public]', 'https://mixed-private-first.example.com/a.jpg', 1],
  ['a name resolving to ::1', 'https://loopback6.example.com/a.jpg', 1],
  ['a name resolving to ::ffff:127.0.0.1', 'https://mapped.example.com/a.jpg', 1],
  ['a name resolving to 169.254.169.254', 'https://metadata.example.com/a.jpg', 1],
  ['a name resolving to NAT64 of 10.0.0.1', 'https://nat64.example.com/a.jpg', 1],
  ['a name resolving to local-use NAT64 of 127.0.0.1', 'https://nat64-local.example.com/a.jpg', 1],
  ['a name resolving to IPv4-translated metadata', 'https://siit.example.com/a.jpg', 1],
  ['a name resolving to Teredo of 127.0.0.1', 'https://teredo.example.com/a.jpg', 1],
  ['a name resolving to 0.0.0.0', 'https://unspecified.example.com/a.jpg', 1],
  ['a name resolving to fd00::1', 'https://ula.example.com/a.jpg', 1],
  ['trusted host, other port', 'https://127.0.0.1:8444/f/a.jpg', 0],
  ['trusted host, default port', 'https://127.0.0.1/f/a.jpg', 0],
  ['trusted port, other host spelling', 'https://localhost:8443/f/a.jpg', 0],
  ['trusted host and port over http:', 'http://127.0.0.1:8443/f/a.jpg', 0],
  ['trusted origin with userinfo', 'https://user:pass@127.0.0.1:8443/f/a.jpg', 0],
];

describe('image URL SSRF table: INVALID_IMAGE_URL with zero connection attempts', () => {
  it('has at least 40 rows', () => {
    expect(rows.length).toBeGreaterThanOrEqual(40);
  });

  it.each(rows)('rejects %s', async (_behaviour, url, lookups) => {
    const fetcher = createImageFetcher({
      resolver,
      connectGuard: loopbackOnlyGuard,
      trustedOrigin,
      openSocket: neverOpen,
    });
    const outcome = await fetcher.fetchImage(url);
    expect(outcome).toMatchObject({ ok: false, code: 'INVALID_IMAGE_URL' });
    expect(fetcher.stats()).toEqual({ lookups, connectAttempts: 0, refused: 0, socketsOpened: 0 });
  });
});
