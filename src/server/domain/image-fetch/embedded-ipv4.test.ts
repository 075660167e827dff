import fc from 'fast-check';
import ipaddr from 'ipaddr.js';
import { describe, expect, it } from 'vitest';
import { embeddedIPv4 } from './embedded-ipv4.ts';

const v6 = (ip: string): ipaddr.IPv6 => ipaddr.IPv6.parse(ip);

describe('embeddedIPv4', () => {
  it.each([
    ['::ffff:127.0.0.1', 'IPv4-mapped', '127.0.0.1'],
    ['::ffff:7f00:1', 'IPv4-mapped', '127.0.0.1'],
    ['::ffff:0:10.0.0.1', 'IPv4-translated', '10.0.0.1'],
    ['::7f00:1', 'IPv4-compatible', '127.0.0.1'],
    ['::a9fe:a9fe', 'IPv4-compatible', '169.254.169.254'],
    ['64:ff9b::7f00:1', 'NAT64', '127.0.0.1'],
    ['64:ff9b::192.168.1.1', 'NAT64', '192.168.1.1'],
    ['2002:7f00:1::', '6to4', '127.0.0.1'],
    ['2002:a00:1:5::9', '6to4', '10.0.0.1'],
    // RFC 4380 §4: the client's address is stored with all bits inverted.
    ['2001:0:4136:e378:8000:63bf:80ff:fffe', 'Teredo', '127.0.0.1'],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'Teredo', '192.0.2.45'],
  ])('%s embeds %s %s', (ip, form, ipv4) => {
    const found = embeddedIPv4(v6(ip));
    expect({ form: found?.form, ipv4: found?.ipv4.toString() }).toEqual({ form, ipv4 });
  });

  it.each(['::', '::1', '2606:4700::1111', 'fe80::1', 'fd00::1', '64:ff9b:1::a00:1', '2001:db8::1'])(
    '%s embeds none',
    (ip) => expect(embeddedIPv4(v6(ip))).toBeUndefined(),
  );

  it('finds any IPv4 address back from the NAT64, 6to4 and Teredo forms built from it', () => {
    fc.assert(
      fc.property(fc.ipV4(), fc.integer({ min: 0, max: 0xffff }), (ipv4, tail) => {
        const [a = 0, b = 0, c = 0, d = 0] = ipaddr.IPv4.parse(ipv4).octets;
        const hex = (x: number): string => x.toString(16);
        const high = (a << 8) | b;
        const low = (c << 8) | d;
        const forms = {
          NAT64: `64:ff9b::${hex(high)}:${hex(low)}`,
          '6to4': `2002:${hex(high)}:${hex(low)}::${hex(tail)}`,
          Teredo: `2001:0:4136:e378:8000:${hex(tail)}:${hex(high ^ 0xffff)}:${hex(low ^ 0xffff)}`,
        };
        for (const [form, ip] of Object.entries(forms))
          expect({ ip, form: embeddedIPv4(v6(ip))?.form, found: embeddedIPv4(v6(ip))?.ipv4.toString() }).toEqual({
            ip,
            form,
            found: ipv4,
          });
      }),
    );
  });
});
