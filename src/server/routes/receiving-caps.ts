/**
 * Caps on the connections still sending their request, so one client cannot lock out others. A connection
 * counts from accept until its request has fully arrived (held and idle ones are bounded by the sync wait and
 * keep-alive timeout). Clients are told apart by address (IPv6: by /64). Per client `maxReceivingPerClient`
 * sending, of which `maxSlowPerClient` for longer than `slowAfterMs`; in all `maxReceivingTotal`. A refused
 * connection gets 503 UNAVAILABLE with Retry-After (transport.ts) and is closed.
 */
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { ServerSettings } from '../config.ts';

const requestSeen = Symbol('request seen');
const receivingSince = Symbol('receiving since');

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
};

/** What the caps need from the edge: how to refuse a connection, and whether one is already closing. */
export interface Edge {
  refuse(socket: Duplex): void;
  isClosing(socket: Duplex): boolean;
}

/**
 * Notes that a connection's request has arrived as far as its head. The first request of a
 * connection is counted from accept; a later one with a body from its own head (one without a
 * body has all arrived with its head, and never counts).
 */
export function noteRequest(socket: Duplex, hasBody: boolean): void {
  const tracked = socket as TrackedSocket;
  if (!tracked[requestSeen]) tracked[requestSeen] = true;
  else if (hasBody) tracked[receivingSince] = performance.now();
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

/** Installs the caps on `server`; they stop when it closes. */
export function capReceiving(server: Server, settings: ServerSettings, edge: Edge): void {
  const byClient = new Map<string, Set<TrackedSocket>>();
  const all = new Set<TrackedSocket>();
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

  server.on('connection', (socket: TrackedSocket) => {
    socket[receivingSince] = performance.now();
    const client = clientKeyOf(socket.remoteAddress);
    const mine = byClient.get(client) ?? new Set<TrackedSocket>();
    if (clientFull(mine) || serverFull()) return edge.refuse(socket);
    mine.add(socket);
    byClient.set(client, mine);
    all.add(socket);
    socket.once('close', () => {
      all.delete(socket);
      mine.delete(socket);
      if (mine.size === 0 && byClient.get(client) === mine) byClient.delete(client);
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
