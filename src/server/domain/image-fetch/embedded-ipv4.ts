import ipaddr from 'ipaddr.js';

/**
 * The IPv6 forms that carry an IPv4 address, and where it sits. A packet to such an address ends up at
 * the embedded IPv4 host (through the OS, a translator, a relay or a tunnel), so an address policy or a
 * test resolver must judge the IPv4 address, not the IPv6 wrapping.
 */
export type EmbeddingForm =
  | 'IPv4-mapped' // ::ffff:a.b.c.d (RFC 4291 §2.5.5.2)
  | 'IPv4-translated' // ::ffff:0:a.b.c.d, SIIT (RFC 7915, ipaddr.js "rfc6145")
  | 'IPv4-compatible' // ::a.b.c.d, deprecated (RFC 4291 §2.5.5.1)
  | 'NAT64' // 64:ff9b::/96 well-known prefix (RFC 6052 §2.1)
  | '6to4' // 2002:a.b.c.d::/48 (RFC 3056 §2)
  | 'Teredo'; // 2001::/32, client address inverted in the last 32 bits (RFC 4380 §4)

/** An IPv4 address found inside an IPv6 address, and the form it was found in. */
export interface EmbeddedIPv4 {
  readonly form: EmbeddingForm;
  readonly ipv4: ipaddr.IPv4;
}

const nat64WellKnown = ipaddr.parseCIDR('64:ff9b::/96');

/** The IPv4 address of `parts` (eight 16-bit groups) from group `at` (high) and `at + 1` (low). */
function ipv4At(parts: readonly number[], at: number, invert = false): ipaddr.IPv4 {
  const high = (parts[at] ?? 0) ^ (invert ? 0xffff : 0);
  const low = (parts[at + 1] ?? 0) ^ (invert ? 0xffff : 0);
  return new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
}

/**
 * The IPv4 address an IPv6 address embeds, by ipaddr.js's ranges; undefined for every other address,
 * including `::` and `::1` (not IPv4-compatible) and the local-use NAT64 block 64:ff9b:1::/48, whose
 * operator chooses where the IPv4 address sits (RFC 8215): it is not globally reachable as a whole.
 */
export function embeddedIPv4(address: ipaddr.IPv6): EmbeddedIPv4 | undefined {
  const parts = address.parts;
  switch (address.range()) {
    case 'ipv4Mapped':
      return { form: 'IPv4-mapped', ipv4: ipv4At(parts, 6) };
    case 'rfc6145':
      return { form: 'IPv4-translated', ipv4: ipv4At(parts, 6) };
    case 'rfc6052':
      return address.match(nat64WellKnown) ? { form: 'NAT64', ipv4: ipv4At(parts, 6) } : undefined;
    case '6to4':
      return { form: '6to4', ipv4: ipv4At(parts, 1) };
    case 'teredo':
      return { form: 'Teredo', ipv4: ipv4At(parts, 6, true) };
    default:
      break;
  }
  const compatible = parts.slice(0, 6).every((p) => p === 0) && ((parts[6] ?? 0) !== 0 || (parts[7] ?? 0) > 1);
  return compatible ? { form: 'IPv4-compatible', ipv4: ipv4At(parts, 6) } : undefined;
}
