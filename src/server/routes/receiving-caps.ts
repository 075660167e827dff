/**
 * Caps on the connections still sending their request, so one client cannot lock out others. A connection
 * counts from accept until its request has fully arrived (held and idle ones are bounded by the sync wait and
 * keep-alive timeout). Clients are told apart by address (IPv6: by /64). Per client `maxReceivingPerClient`
 * sending, of which `maxSlowPerClient` for longer than `slowAfterMs`; in all `maxReceivingTotal`. A refused
 * connection gets 503 UNAVAILABLE with Retry-After (transport.ts) and is closed. A connection from a trusted
 * balancer (`trustedProxies`) counts, from its request's head on, for the client its X-Forwarded-For names.
 */
import type { IncomingMessage, Server } from 'node:http';
import { isIP } from 'node:net';
import type { Duplex } from 'node:stream';
import ipaddr from 'ipaddr.js';
import type { ServerSettings } from '../config.ts';

const requestSeen = Symbol('request seen');
const receivingSince = Symbol('receiving since');
const clientOf = Symbol('client');
const forwardedTo = Symbol('forwarded to');

/**
 * Node's parser keeps the request it is reading (`parser.incoming`) until that request has been read
 * and answered. The socket itself keeps no request: a kept connection would otherwise hold its last
 * request, and whatever hangs on it (an upload's body), until its next request or its close.
 */
type TrackedSocket = Duplex & {
  remoteAddress?: string | undefined;
  parser?: { incoming?: IncomingMessage | null } | null;
  [requestSeen]?: true;
  [receivingSince]?: number;
  /** The client the connection counts for now. */
  [clientOf]?: string | undefined;
  /** On a trusted balancer's connection: counts it for the client a request names; false when that client is full. */
  [forwardedTo]?: (client: string) => boolean;
};

/** What the caps need from the edge: how to refuse a connection, and whether one is already closing. */
export interface Edge {
  refuse(socket: Duplex): void;
  isClosing(socket: Duplex): boolean;
}

/**
 * Notes that a connection's request has arrived as far as its head. The first request of a
 * connection is counted from accept; a later one with a body from its own head (one without a
 * body has all arrived with its head, and never counts). False when the request came through a trusted
 * balancer for a client already at its cap (the caller refuses it).
 */
export function noteRequest(socket: Duplex, hasBody: boolean, forwardedFor?: string | string[]): boolean {
  const tracked = socket as TrackedSocket;
  if (!tracked[requestSeen]) tracked[requestSeen] = true;
  else if (hasBody) tracked[receivingSince] = performance.now();
  return tracked[forwardedTo]?.(forwardedClientOf(forwardedFor)) ?? true;
}

/** The client a connection's current request counts for: its own address, or the one a trusted balancer forwarded. */
export function clientOfSocket(socket: Duplex & { remoteAddress?: string | undefined }): string {
  return (socket as TrackedSocket)[clientOf] ?? clientKeyOf(socket.remoteAddress);
}

/** The client a trusted balancer names: the last X-Forwarded-For entry (the address it saw), else `unknown`. */
export function forwardedClientOf(header: string | string[] | undefined): string {
  const joined = Array.isArray(header) ? header.join(',') : (header ?? '');
  const last = joined.split(',').pop()?.trim() ?? '';
  return isIP(last) ? clientKeyOf(last) : 'unknown';
}

/**
 * The client a connection belongs to: its IPv4 address (also when IPv4-mapped), or the /64 prefix
 * of its IPv6 address, which one host or one subscriber usually holds whole.
 */
export function clientKeyOf(address: string | undefined): string {
  if (address === undefined || address === '') return 'unknown';
  if (!address.includes(':')) return address;
  const bare = address.split('%')[0]!.toLowerCase();
  if (bare.startsWith('::ffff:') && bare.includes('.')) return bare.slice('::ffff:'.length);
  const [head = '', tail] = bare.split('::');
  const headGroups = head === '' ? [] : head.split(':');
  const tailGroups = tail === undefined || tail === '' ? [] : tail.split(':');
  const zeros = Array<string>(Math.max(0, 8 - headGroups.length - tailGroups.length)).fill('0');
  const groups = [...headGroups, ...zeros, ...tailGroups];
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}

/** One address in one spelling (IPv4-mapped IPv6 as IPv4), to match a trusted balancer exactly. */
function exactAddress(address: string | undefined): string {
  const bare = (address ?? '').split('%')[0]!;
  return ipaddr.isValid(bare) ? ipaddr.process(bare).toNormalizedString() : bare;
}

/** Installs the caps on `server`; they stop when it closes. */
export function capReceiving(server: Server, settings: ServerSettings, edge: Edge): void {
  const byClient = new Map<string, Set<TrackedSocket>>();
  const all = new Set<TrackedSocket>();
  const trusted = new Set(settings.trustedProxies.map(exactAddress));
  const isReceiving = (socket: TrackedSocket) => {
    // A connection already answered and closing (it lingers unread) no longer counts.
    if (socket.destroyed || edge.isClosing(socket)) return false;
    const request = socket.parser?.incoming;
    // No request being read: receiving only while the first one's head is still arriving.
    return request ? !request.complete : !socket[requestSeen];
  };
  const isReceivingSince = (socket: TrackedSocket, before: number) =>
    (socket[receivingSince] ?? 0) < before && isReceiving(socket);
  const slowBefore = () => performance.now() - settings.slowAfterMs;
  /** Whether a client's connections are at either of its caps: one pass, which stops at the first cap reached. */
  const clientFull = (sockets: Set<TrackedSocket>) => {
    if (sockets.size < Math.min(settings.maxReceivingPerClient, settings.maxSlowPerClient)) return false;
    const before = slowBefore();
    let receiving = 0;
    let slow = 0;
    for (const socket of sockets) {
      if (!isReceiving(socket)) continue;
      if (++receiving >= settings.maxReceivingPerClient) return true;
      if ((socket[receivingSince] ?? 0) < before && ++slow >= settings.maxSlowPerClient) return true;
    }
    return false;
  };
  const serverFull = () => {
    if (all.size < settings.maxReceivingTotal) return false;
    let receiving = 0;
    for (const socket of all) if (isReceiving(socket) && ++receiving >= settings.maxReceivingTotal) return true;
    return false;
  };

  const join = (socket: TrackedSocket, client: string) => {
    const mine = byClient.get(client) ?? new Set<TrackedSocket>();
    mine.add(socket);
    byClient.set(client, mine);
    socket[clientOf] = client;
  };
  const leave = (socket: TrackedSocket) => {
    const client = socket[clientOf];
    const mine = client === undefined ? undefined : byClient.get(client);
    if (mine?.delete(socket) && mine.size === 0) byClient.delete(client!);
    socket[clientOf] = undefined;
  };
  const isFull = (client: string) => {
    const mine = byClient.get(client);
    return mine !== undefined && clientFull(mine);
  };

  server.on('connection', (socket: TrackedSocket) => {
    socket[receivingSince] = performance.now();
    const own = clientKeyOf(socket.remoteAddress);
    // A trusted balancer is not one client: its connections count for a client once a request names one.
    const balancer = trusted.size > 0 && trusted.has(exactAddress(socket.remoteAddress));
    if ((!balancer && isFull(own)) || serverFull()) return edge.refuse(socket);
    if (balancer) {
      socket[forwardedTo] = (client) => {
        leave(socket);
        if (isFull(client)) return false;
        join(socket, client);
        return true;
      };
    } else join(socket, own);
    all.add(socket);
    socket.once('close', () => {
      all.delete(socket);
      leave(socket);
    });
  });

  // The oldest slow connections of a client keep their place (they are furthest along); newer ones over the cap go.
  const shedSlow = () => {
    const before = slowBefore();
    for (const mine of byClient.values()) {
      if (mine.size <= settings.maxSlowPerClient) continue;
      let slow = 0;
      for (const socket of mine) {
        if (isReceivingSince(socket, before) && ++slow > settings.maxSlowPerClient) edge.refuse(socket);
      }
    }
  };
  const checker = setInterval(shedSlow, settings.deadlineCheckMs);
  checker.unref();
  server.once('close', () => clearInterval(checker));
}
