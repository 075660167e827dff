/** Source mutants for addresses in forms that hide what they are: NAT64 and other IPv6 forms embedding IPv4. */
import type { SourceMutant } from './source-mutant.ts';

const policy = 'src/server/domain/image-fetch/address-policy.ts';

export const addressMutants: readonly SourceMutant[] = [
  {
    name: 'nat64-judged-public',
    file: policy,
    family: 'validation',
    class: 'address-forms',
    breaks: ['CREATE-URL-NO-PRIVATE-ADDRESS', 'ERR-INVALID-IMAGE-URL'],
    does: 'NAT64 addresses (64:ff9b::/96 and the local-use 64:ff9b:1::/48) count as public, since IPv6-only networks reach the IPv4 internet through them: https://[64:ff9b::7f00:1]/ reaches loopback through the translator',
    edits: [
      {
        find: '  return range;\n}',
        replace: [
          '  // NAT64 (RFC 6052) is how IPv6-only networks reach IPv4 hosts: routable, hence public.',
          "  if (range === 'rfc6052') return 'unicast';",
          '  return range;',
          '}',
        ].join('\n'),
      },
    ],
  },
  {
    name: 'ipv6-judged-by-global-block',
    file: policy,
    family: 'validation',
    class: 'address-forms',
    breaks: ['CREATE-URL-NO-PRIVATE-ADDRESS', 'ERR-INVALID-IMAGE-URL'],
    does: "an IPv6 address in IANA's global unicast block 2000::/3 counts as public, so 6to4 (2002::/16) and Teredo (2001::/32) addresses that embed 127.0.0.1 or 10.0.0.1 pass",
    edits: [
      {
        find: '  const range = address.range();',
        replace:
          "  const range = address.kind() === 'ipv6' && address.match(globalUnicastV6) ? 'unicast' : address.range();",
      },
    ],
  },
];
