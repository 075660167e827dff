import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { isPublicUnicast } from './address-policy.ts';
import { embeddedIPv4 } from './embedded-ipv4.ts';
import type { Resolver } from './resolver.ts';

/**
 * The resolver convention of the test-control extension (openapi-control.yaml, `PUT /names/{name}`): a run
 * sets what a `.test` name resolves to, to send image URLs whose *name* points at a private address (spec
 * "POST /tryons" rule 2). `.test` never reaches real DNS (RFC 6761 §6.2), and answers are only private,
 * loopback, reserved or documentation addresses, so a server that wrongly connects stays on its machine.
 * The table is per server, like DNS; runs use random names, so tests never collide.
 */

/**
 * Ranges an answer may lie in. An IPv6 answer that embeds an IPv4 address (IPv4-mapped, IPv4-translated,
 * IPv4-compatible, NAT64 64:ff9b::/96, 6to4, Teredo) is judged by that IPv4 address.
 */
export const testNameAnswerRanges: readonly string[] = [
  '0.0.0.0/8', // "this network", unspecified
  '10.0.0.0/8', // private (RFC 1918)
  '100.64.0.0/10', // shared address space, CGNAT (RFC 6598)
  '127.0.0.0/8', // loopback
  '169.254.0.0/16', // link-local, cloud metadata
  '172.16.0.0/12', // private
  '192.0.2.0/24', // documentation TEST-NET-1 (RFC 5737)
  '192.168.0.0/16', // private
  '198.18.0.0/15', // benchmarking (RFC 2544)
  '198.51.100.0/24', // documentation TEST-NET-2
  '203.0.113.0/24', // documentation TEST-NET-3
  '224.0.0.0/4', // multicast
  '240.0.0.0/4', // reserved, and the limited broadcast 255.255.255.255
  '::/128', // unspecified
  '::1/128', // loopback
  'fc00::/7', // unique local
  'fe80::/10', // link-local
  'fec0::/10', // site-local (deprecated)
  'ff00::/8', // multicast
  '2001:db8::/32', // documentation (RFC 3849)
  '64:ff9b:1::/48', // local-use NAT64 (RFC 8215), not globally reachable
];

const parsedRanges = testNameAnswerRanges.map((cidr) => ipaddr.parseCIDR(cidr));

/** Most names one server keeps; setting one more forgets the oldest (a long-lived `serve` never fills up). */
export const maxTestNames = 10_000;

/** Most answers one name may have. */
export const maxTestNameAnswers = 16;

const label = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/**
 * The name in canonical form (lower case, no trailing dot) when it is a well-formed DNS name of at
 * least one label under `.test`; otherwise undefined.
 */
export function testName(raw: string): string | undefined {
  const name = raw.toLowerCase().replace(/\.$/, '');
  if (name.length > 253) return undefined;
  const labels = name.split('.');
  if (labels.length < 2 || labels.at(-1) !== 'test') return undefined;
  return labels.every((l) => label.test(l)) ? name : undefined;
}

/** Whether `ip`, written plainly (dotted quad, or IPv6), is an answer the convention allows. */
export function isTestNameAnswer(ip: string): boolean {
  const family = isIP(ip);
  if (family === 0) return false;
  let address = ipaddr.parse(ip.split('%')[0] ?? ip);
  if (address.kind() === 'ipv6') address = embeddedIPv4(address as ipaddr.IPv6)?.ipv4 ?? address;
  const inRange = parsedRanges.some(([range, bits]) => range.kind() === address.kind() && address.match(range, bits));
  // Belt and braces: whatever the table says, an address the image-URL policy would let through is never an answer.
  return inRange && !isPublicUnicast(ip);
}

/**
 * The names a run sets: this process's table (TestNames), or one every instance on a database shares
 * (server/cluster/shared-test-names.ts), whose set is a promise.
 */
export interface NameTable {
  /** Sets (or replaces) the answers of a name the caller has already checked with `testName` and `isTestNameAnswer`. */
  set(name: string, addresses: readonly string[]): void | Promise<void>;
  /** The answers set for a canonical name, if any. */
  get(name: string): readonly string[] | undefined | Promise<readonly string[] | undefined>;
  /** A resolver: a set name gets its answers; any other name goes to `fallback` (the injected resolver). */
  resolver(fallback: Resolver): Resolver;
}

/** The names a run has set, and a resolver that answers them before asking the server's own. */
export class TestNames implements NameTable {
  readonly #table = new Map<string, readonly string[]>();

  /** Sets (or replaces) the answers of a name the caller has already checked with `testName` and `isTestNameAnswer`. */
  set(name: string, addresses: readonly string[]): void {
    this.#table.delete(name);
    this.#table.set(name, [...addresses]);
    if (this.#table.size > maxTestNames) this.#table.delete(this.#table.keys().next().value as string);
  }

  get(name: string): readonly string[] | undefined {
    return this.#table.get(name);
  }

  /** A resolver: a set name gets its answers; any other name goes to `fallback` (the injected resolver). */
  resolver(fallback: Resolver): Resolver {
    return async (hostname) => {
      const name = testName(hostname);
      const answers = name === undefined ? undefined : this.#table.get(name);
      return answers ?? fallback(hostname);
    };
  }
}
