import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/** An address in IANA's IPv6 global unicast block 2000::/3 (RFC 4291 §2.4). */
const globalUnicastV6 = ipaddr.parseCIDR('2000::/3');

/**
 * Parses an address written in its plain form only (dotted-quad IPv4, or IPv6 without a zone) and
 * unwraps IPv4-mapped IPv6 (`::ffff:a.b.c.d`) to the IPv4 address it stands for. Anything else,
 * including ipaddr.js's lenient forms (`2130706433`, `0x7f.1`), gives `undefined`: those are the URL
 * parser's business, and an address that reaches a socket must already be normalised.
 */
function parsePlain(ip: string): ipaddr.IPv4 | ipaddr.IPv6 | undefined {
  const family = isIP(ip);
  if (family === 0) return undefined;
  const address = ipaddr.parse(family === 6 ? hexOnlyIPv6(ip) : ip);
  if (address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress()) {
    return (address as ipaddr.IPv6).toIPv4Address();
  }
  return address;
}

/**
 * Rewrites IPv6 in pure hex (`::127.0.0.1` → `::7f00:1`) and drops a zone id. ipaddr.js reads any
 * embedded dotted quad as IPv4-mapped, so it would take IPv4-compatible `::127.0.0.1` for loopback.
 */
function hexOnlyIPv6(ip: string): string {
  const [withoutZone = ip] = ip.split('%');
  return new URL(`https://[${withoutZone}]/`).hostname.slice(1, -1);
}

/**
 * The ipaddr.js range of an address ("unicast", "private", "loopback", "rfc6052", …), after
 * unwrapping IPv4-mapped IPv6; `invalid` when it is not a plainly written IP address.
 */
export function addressRange(ip: string): string {
  const address = parsePlain(ip);
  if (address === undefined) return 'invalid';
  const range = address.range();
  // ipaddr.js calls IPv4-compatible (::a.b.c.d) and the rest of ::/8 "unicast"; IANA does not.
  if (range === 'unicast' && address.kind() === 'ipv6' && !address.match(globalUnicastV6)) return 'reserved';
  return range;
}

/**
 * Whether an image URL may point at this address (spec "POST /tryons" rule 2: "must not point at a
 * private address"; Errors: INVALID_IMAGE_URL). Only ipaddr.js `unicast` passes, so loopback, private,
 * link-local, CGNAT, multicast, broadcast, reserved, documentation and benchmarking ranges fail, and so
 * do the IPv6 forms that embed an IPv4 address (NAT64 64:ff9b::/96, 6to4 2002::/16, Teredo,
 * IPv4-compatible ::/96) whatever they embed. IPv6 must also lie in 2000::/3.
 */
export function isPublicUnicast(ip: string): boolean {
  return addressRange(ip) === 'unicast';
}

/**
 * Whether an address is loopback: 127.0.0.0/8, ::1, or IPv4-mapped 127.x. The test safety net allows
 * these and nothing else.
 */
export function isLoopback(ip: string): boolean {
  return addressRange(ip) === 'loopback';
}
