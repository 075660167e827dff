/**
 * The image URL rules a request alone shows broken (spec: POST /tryons rule 2, "Image URL rules:
 * HTTPS; default port only; must not point at a private address"; Errors, "400 | INVALID_IMAGE_URL |
 * URL not HTTPS, custom port, or private address"). A URL is read as the WHATWG parser reads it (so
 * `0x7f000001` is 127.0.0.1); only an address literal can be seen private from the text, a name's
 * answers cannot. The origin test control declares it trusts as a public image host is exempt.
 */
import { BlockList, isIPv4, isIPv6 } from 'node:net';

export type UrlFault = 'https' | 'port' | 'private';

const privateBlocks = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  privateBlocks.addSubnet(net, bits, 'ipv4');
for (const [net, bits] of [
  ['::', 128],
  ['::1', 128],
  ['fe80::', 10],
  ['fc00::', 7],
  ['ff00::', 8],
  ['64:ff9b:1::', 48],
] as const)
  privateBlocks.addSubnet(net, bits, 'ipv6');

/** The first static rule `raw` breaks, or none (a name, a public literal, or not a URL at all). */
export function urlFault(raw: string, trustedOrigins: readonly string[] = []): UrlFault | undefined {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return undefined;
  }
  if (trustedOrigins.includes(url.origin)) return undefined;
  if (url.protocol !== 'https:') return 'https';
  if (url.port !== '') return 'port';
  return isPrivateLiteral(url.hostname) ? 'private' : undefined;
}

/** Whether a URL's host is an IPv4 or IPv6 literal of a private, loopback, link-local or special address. */
export function isPrivateLiteral(hostname: string): boolean {
  const host = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  if (isIPv4(host)) return privateBlocks.check(host, 'ipv4');
  if (!isIPv6(host)) return false;
  if (privateBlocks.check(host, 'ipv6')) return true;
  const embedded = embeddedIPv4(host);
  return embedded !== undefined && privateBlocks.check(embedded, 'ipv4');
}

/**
 * The IPv4 address an IPv6 literal carries where a packet to it reaches that IPv4 host: IPv4-mapped
 * and -translated, IPv4-compatible, NAT64 (64:ff9b::/96), 6to4 (2002::/16) and Teredo's client.
 */
function embeddedIPv4(host: string): string | undefined {
  const g = groupsOf(host);
  if (g === undefined) return undefined;
  const v4 = (hi: number, lo: number) => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  const zeros = (from: number, to: number) => g.slice(from, to).every((n) => n === 0);
  if (zeros(0, 5) && (g[5] === 0xffff || g[5] === 0)) return v4(g[6] ?? 0, g[7] ?? 0);
  if (zeros(0, 4) && g[4] === 0xffff && g[5] === 0) return v4(g[6] ?? 0, g[7] ?? 0);
  if (g[0] === 0x64 && g[1] === 0xff9b && zeros(2, 6)) return v4(g[6] ?? 0, g[7] ?? 0);
  if (g[0] === 0x2002) return v4(g[1] ?? 0, g[2] ?? 0);
  if (g[0] === 0x2001 && g[1] === 0) return v4((g[6] ?? 0) ^ 0xffff, (g[7] ?? 0) ^ 0xffff);
  return undefined;
}

/** The eight 16-bit groups of an IPv6 literal (an embedded dotted IPv4 tail included). */
function groupsOf(host: string): number[] | undefined {
  const [head = '', tail] = host.split('::');
  const parts = (s: string): number[] =>
    s === ''
      ? []
      : s.split(':').flatMap((p) => {
          if (!p.includes('.')) return [Number.parseInt(p, 16)];
          const [a = 0, b = 0, c = 0, d = 0] = p.split('.').map(Number);
          return [(a << 8) | b, (c << 8) | d];
        });
  const left = parts(head);
  const right = tail === undefined ? [] : parts(tail);
  const fill = 8 - left.length - right.length;
  if (fill < 0 || (tail === undefined && fill !== 0)) return undefined;
  const all = [...left, ...Array<number>(fill).fill(0), ...right];
  return all.every((n) => Number.isInteger(n) && n >= 0 && n <= 0xffff) ? all : undefined;
}
