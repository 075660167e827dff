import { isIP } from 'node:net';
import { addressRange } from './address-policy.ts';

/** What the host of an image URL is: an IP literal (already normalised), or a DNS name to resolve. */
export type HostKind = { kind: 'ip'; address: string; family: 4 | 6 } | { kind: 'name'; name: string };

export type UrlCheck = { ok: true; url: URL; host: HostKind; trusted: boolean } | { ok: false; reason: string };

/**
 * Zones that never name a public host: RFC 6761 `localhost`, RFC 6762 `local` (mDNS), RFC 8375
 * `home.arpa`, ICANN's private-use `internal`, and the `localdomain` of /etc/hosts files.
 */
const localZones = ['localhost', 'local', 'home.arpa', 'internal', 'localdomain'];

const dnsLabel = /^[a-z0-9_-]{1,63}$/;

/**
 * The static image URL rules of spec "POST /tryons" rule 2 and Errors INVALID_IMAGE_URL ("URL not HTTPS,
 * custom port, or private address"), checked without resolving or connecting: `https:`, no userinfo, the
 * default port; an IP literal judged by its range (WHATWG parsing has already normalised every IPv4 and IPv6
 * spelling); a name well-formed, with a dot, outside the local zones (one label goes to the search domains).
 * `trustedOrigin`, one exact origin, is exempt from the port, private-address and local-name rules.
 */
export function checkImageUrl(raw: string, trustedOrigin?: string): UrlCheck {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: 'not a valid absolute URL' };
  }
  if (url.protocol !== 'https:') return { ok: false, reason: `scheme ${url.protocol} is not https:` };
  if (url.username !== '' || url.password !== '') return { ok: false, reason: 'userinfo (user:pass@) is not allowed' };

  const host = classifyHost(url.hostname);
  if (host === undefined) return { ok: false, reason: `host ${url.hostname} is not a valid DNS name or IP address` };

  const trusted = trustedOrigin !== undefined && url.origin === trustedOrigin;
  if (trusted) return { ok: true, url, host, trusted };

  if (url.port !== '') return { ok: false, reason: `port ${url.port} is not the default HTTPS port` };
  if (host.kind === 'ip') {
    const range = addressRange(host.address);
    if (range !== 'unicast') return { ok: false, reason: `address ${host.address} is not public unicast (${range})` };
  } else {
    const local = localNameReason(host.name);
    if (local !== undefined) return { ok: false, reason: local };
  }
  return { ok: true, url, host, trusted };
}

function classifyHost(hostname: string): HostKind | undefined {
  const bare = hostname.startsWith('[') ? hostname.slice(1, -1) : hostname;
  const family = isIP(bare);
  if (family === 4 || family === 6) return { kind: 'ip', address: bare, family };
  // A fully qualified name may end in one dot; the name itself is what gets resolved and verified.
  const name = bare.endsWith('.') ? bare.slice(0, -1) : bare;
  if (name.length === 0 || name.length > 253) return undefined;
  if (!name.split('.').every((label) => dnsLabel.test(label))) return undefined;
  return { kind: 'name', name };
}

function localNameReason(name: string): string | undefined {
  if (!name.includes('.')) return `single-label name ${name} can only resolve inside a local network`;
  const zone = localZones.find((z) => name === z || name.endsWith(`.${z}`));
  if (zone !== undefined) return `name ${name} is in the local zone .${zone}`;
  return undefined;
}
