import { describe, expect, it } from 'vitest';
import { checkImageUrl } from './url-rules.ts';

describe('checkImageUrl: IPv4 spellings are normalised by WHATWG parsing before the range check', () => {
  const rows: [string, { raw: string; reason: string }][] = [
    ['decimal', { raw: 'https://2130706433/a.jpg', reason: 'address 127.0.0.1 is not public unicast (loopback)' }],
    ['hex', { raw: 'https://0x7f000001/a.jpg', reason: 'address 127.0.0.1 is not public unicast (loopback)' }],
    [
      'hex first octet',
      { raw: 'https://0x7f.0.0.1/a.jpg', reason: 'address 127.0.0.1 is not public unicast (loopback)' },
    ],
    ['octal octet', { raw: 'https://0177.0.0.1/a.jpg', reason: 'address 127.0.0.1 is not public unicast (loopback)' }],
    [
      'octal whole',
      { raw: 'https://017700000001/a.jpg', reason: 'address 127.0.0.1 is not public unicast (loopback)' },
    ],
    ['short form', { raw: 'https://127.1/a.jpg', reason: 'address 127.0.0.1 is not public unicast (loopback)' }],
    ['short private', { raw: 'https://10.1/a.jpg', reason: 'address 10.0.0.1 is not public unicast (private)' }],
    ['zero', { raw: 'https://0/a.jpg', reason: 'address 0.0.0.0 is not public unicast (unspecified)' }],
    ['trailing dot', { raw: 'https://127.0.0.1./a.jpg', reason: 'address 127.0.0.1 is not public unicast (loopback)' }],
    [
      'percent-encoded',
      { raw: 'https://%31%32%37.0.0.1/a.jpg', reason: 'address 127.0.0.1 is not public unicast (loopback)' },
    ],
    [
      'full-width digits',
      { raw: 'https://１２７.0.0.1/a.jpg', reason: 'address 127.0.0.1 is not public unicast (loopback)' },
    ],
    [
      'IPv4-mapped, dotted',
      { raw: 'https://[::ffff:127.0.0.1]/a.jpg', reason: 'address ::ffff:7f00:1 is not public unicast (loopback)' },
    ],
    [
      'IPv4-compatible',
      { raw: 'https://[::127.0.0.1]/a.jpg', reason: 'address ::7f00:1 is not public unicast (reserved)' },
    ],
  ];
  it.each(rows)('%s', (_name, { raw, reason }) => {
    expect(checkImageUrl(raw)).toEqual({ ok: false, reason });
  });
});

describe('checkImageUrl: accepted URLs', () => {
  const rows: [string, { raw: string; host: unknown }][] = [
    ['a public name', { raw: 'https://images.example.com/a.jpg', host: { kind: 'name', name: 'images.example.com' } }],
    [
      'explicit :443',
      { raw: 'https://images.example.com:443/a.jpg', host: { kind: 'name', name: 'images.example.com' } },
    ],
    [
      'a fully qualified name',
      { raw: 'https://images.example.com./a.jpg', host: { kind: 'name', name: 'images.example.com' } },
    ],
    [
      'a signed URL',
      {
        raw: 'https://cdn.example.com/a.jpg?X-Amz-Signature=abc&X-Amz-Expires=60',
        host: { kind: 'name', name: 'cdn.example.com' },
      },
    ],
    ['an IDN', { raw: 'https://bücher.example/a.png', host: { kind: 'name', name: 'xn--bcher-kva.example' } }],
    [
      'a public IPv4',
      { raw: 'https://93.184.216.34/a.jpg', host: { kind: 'ip', address: '93.184.216.34', family: 4 } },
    ],
    [
      'a public IPv6',
      { raw: 'https://[2606:4700::1111]/a.jpg', host: { kind: 'ip', address: '2606:4700::1111', family: 6 } },
    ],
  ];
  it.each(rows)('%s', (_name, { raw, host }) => {
    expect(checkImageUrl(raw)).toMatchObject({ ok: true, host, trusted: false });
  });
});

describe('checkImageUrl: the trusted fixture origin', () => {
  const trusted = 'https://127.0.0.1:8443';
  const rows: [string, { raw: string; want: boolean | string }][] = [
    ['exact origin', { raw: 'https://127.0.0.1:8443/f/a.jpg', want: true }],
    ['same origin spelled as a decimal IPv4', { raw: 'https://2130706433:8443/f/a.jpg', want: true }],
    [
      'same host, other port',
      { raw: 'https://127.0.0.1:8444/f/a.jpg', want: 'port 8444 is not the default HTTPS port' },
    ],
    [
      'same host, default port',
      { raw: 'https://127.0.0.1/f/a.jpg', want: 'address 127.0.0.1 is not public unicast (loopback)' },
    ],
    [
      'same port, other spelling of the host',
      { raw: 'https://localhost:8443/f/a.jpg', want: 'port 8443 is not the default HTTPS port' },
    ],
    ['http on the same host and port', { raw: 'http://127.0.0.1:8443/f/a.jpg', want: 'scheme http: is not https:' }],
    [
      'userinfo on the trusted origin',
      { raw: 'https://u:p@127.0.0.1:8443/f/a.jpg', want: 'userinfo (user:pass@) is not allowed' },
    ],
  ];
  it.each(rows)('%s', (_name, { raw, want }) => {
    const result = checkImageUrl(raw, trusted);
    if (typeof want === 'string') expect(result).toEqual({ ok: false, reason: want });
    else expect(result).toMatchObject({ ok: true, trusted: want });
  });

  it('exempts a trusted name from the local-name rules', () => {
    expect(checkImageUrl('https://localhost:8443/f/a.jpg', 'https://localhost:8443')).toMatchObject({
      ok: true,
      trusted: true,
      host: { kind: 'name', name: 'localhost' },
    });
  });
});
