/**
 * Addresses an image URL must not point at (spec, POST /tryons rule 2: "must not point at a private
 * address"), as data for the SSRF rows: one per class of private address, names with several answers, and
 * IPv6 addresses that embed a private, loopback or link-local IPv4 address. A packet sent to one of these
 * reaches the embedded IPv4 host: the OS maps it (IPv4-mapped), a translator rewrites it (NAT64, SIIT), or a
 * tunnel or relay carries it (6to4, Teredo, IPv4-compatible), so each points at that private address. The
 * local-use NAT64 block 64:ff9b:1::/48 (RFC 8215) is not globally reachable at all. Only data: the suite
 * sends these to the target, never to a socket.
 */

/**
 * One answer per class of address the literal table of image-urls.suite judges as private: loopback,
 * RFC 1918, link-local (cloud metadata), CGNAT, unique-local, unspecified, multicast, broadcast, and
 * IPv4-mapped IPv6.
 */
export const privateClasses: ReadonlyArray<readonly [label: string, address: string]> = [
  ['loopback', '127.0.0.1'],
  ['loopback elsewhere in 127/8', '127.53.0.9'],
  ['IPv6 loopback', '::1'],
  ['private 10/8', '10.0.0.1'],
  ['private 172.16/12', '172.16.0.1'],
  ['private 192.168/16', '192.168.1.1'],
  ['link-local (cloud metadata)', '169.254.169.254'],
  ['IPv6 link-local', 'fe80::1'],
  ['CGNAT', '100.64.0.1'],
  ['unique-local fc00::/8', 'fc00::1'],
  ['unique-local fd00::/8', 'fd00::1'],
  ['unspecified', '0.0.0.0'],
  ['IPv6 unspecified', '::'],
  ['multicast', '224.0.0.1'],
  ['IPv6 multicast', 'ff02::1'],
  ['broadcast', '255.255.255.255'],
  ['IPv4-mapped IPv6 loopback', '::ffff:127.0.0.1'],
  ['IPv4-mapped IPv6 private', '::ffff:10.0.0.1'],
];

/**
 * Names with several answers, one of them private. The documentation addresses (RFC 5737, RFC 3849)
 * stand in for public answers: the convention never hands a target a public address. A client may
 * dial any answer of a name, so the name points at a private address when any one of them is private.
 */
export const mixedAnswers: ReadonlyArray<readonly [label: string, addresses: readonly string[]]> = [
  ['a documentation address, then a private one', ['192.0.2.10', '10.0.0.1']],
  ['a private address, then a documentation one', ['10.0.0.1', '192.0.2.10']],
  ['two documentation addresses, then loopback', ['198.51.100.7', '203.0.113.9', '127.0.0.1']],
  [
    'three documentation addresses, then cloud metadata',
    ['192.0.2.1', '198.51.100.2', '203.0.113.3', '169.254.169.254'],
  ],
  ['IPv6 documentation, then unique-local', ['2001:db8::10', 'fd00::1']],
  ['IPv4 documentation, then IPv6 loopback', ['192.0.2.10', '::1']],
];

/** [label, IPv6 address]: every form, each embedding a non-public IPv4 address. */
export const embeddedPrivateIPv6: ReadonlyArray<readonly [label: string, address: string]> = [
  ['NAT64 64:ff9b::/96 of 127.0.0.1', '64:ff9b::7f00:1'],
  ['NAT64 64:ff9b::/96 of 10.0.0.1, dotted', '64:ff9b::10.0.0.1'],
  ['NAT64 64:ff9b::/96 of 169.254.169.254 (cloud metadata)', '64:ff9b::a9fe:a9fe'],
  ['local-use NAT64 64:ff9b:1::/48 of 192.168.1.1', '64:ff9b:1::c0a8:101'],
  ['IPv4-mapped ::ffff:0:0/96 of 10.0.0.1, hex', '::ffff:a00:1'],
  ['IPv4-translated (SIIT) ::ffff:0:0:0/96 of 127.0.0.1', '::ffff:0:7f00:1'],
  ['IPv4-compatible ::/96 (deprecated) of 10.0.0.1, hex', '::a00:1'],
  ['6to4 2002::/16 of 127.0.0.1', '2002:7f00:1::1'],
  ['6to4 2002::/16 of 192.168.1.1', '2002:c0a8:101::1'],
  ['Teredo 2001::/32 with client 127.0.0.1 (inverted bits)', '2001:0:4136:e378:8000:63bf:80ff:fffe'],
];

/** The forms a `.test` name may resolve to through test control (a subset; each embeds a private address). */
export const embeddedPrivateAnswers: ReadonlyArray<readonly [label: string, address: string]> = [
  ['NAT64 of 10.0.0.1', '64:ff9b::a00:1'],
  ['local-use NAT64 of 127.0.0.1', '64:ff9b:1::7f00:1'],
  ['IPv4-translated (SIIT) of 169.254.169.254', '::ffff:0:a9fe:a9fe'],
  ['IPv4-compatible of 127.0.0.1', '::7f00:1'],
  ['6to4 of 10.0.0.1', '2002:a00:1::1'],
  ['Teredo with client 127.0.0.1', '2001:0:4136:e378:8000:63bf:80ff:fffe'],
];
