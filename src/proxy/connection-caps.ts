/**
 * Caps on the connections clients hold, so that one client cannot lock out the others: at most
 * `perClient` at once from one client (an IPv4 address, or the /64 an IPv6 address belongs to, which
 * one host or subscriber usually holds whole) and `total` in all. A connection over a cap gets a 503
 * in the envelope and is closed. (The reference server's caps live in server/, which the proxy does
 * not import; these count whole connections, which is what a proxy holds for a client.)
 */
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import ipaddr from 'ipaddr.js';

/** The client a connection belongs to: its IPv4 address (also when IPv4-mapped), or its IPv6 /64. */
export function clientOf(address: string | undefined): string {
  if (address === undefined || !ipaddr.isValid(address.split('%')[0] ?? '')) return 'unknown';
  const parsed = ipaddr.process(address.split('%')[0] as string);
  if (parsed.kind() === 'ipv4') return parsed.toString();
  const parts = (parsed as ipaddr.IPv6).parts.slice(0, 4).map((p) => p.toString(16));
  return `${parts.join(':')}::/64`;
}

/** Applies the caps to `server`; `refuse` answers and closes a connection over a cap. Returns the open sockets. */
export function capConnections(
  server: Server,
  caps: { readonly perClient: number; readonly total: number },
  refuse: (socket: Socket) => void,
): Set<Socket> {
  const open = new Set<Socket>();
  const perClient = new Map<string, number>();
  server.on('connection', (socket: Socket) => {
    const client = clientOf(socket.remoteAddress);
    const mine = perClient.get(client) ?? 0;
    if (mine >= caps.perClient || open.size >= caps.total) return refuse(socket);
    perClient.set(client, mine + 1);
    open.add(socket);
    socket.once('close', () => {
      open.delete(socket);
      const left = (perClient.get(client) ?? 1) - 1;
      if (left > 0) perClient.set(client, left);
      else perClient.delete(client);
    });
  });
  return open;
}
