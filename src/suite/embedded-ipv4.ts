/**
 * IPv6 addresses that embed a private, loopback or link-local IPv4 address, for the rule "must not point at a
 * private address" (spec, POST /tryons rule 2). A packet sent to one reaches the embedded IPv4 host: the OS
 * maps it (IPv4-mapped), a translator rewrites it (NAT64, SIIT), or a tunnel or relay carries it (6to4,
 * Teredo, IPv4-compatible), so each points at that private address. The local-use NAT64 block 64:ff9b:1::/48
 * (RFC 8215) is not globally reachable at all. Only data: the suite sends these to the target, never to a socket.
 */

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
