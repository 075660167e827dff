import { connect as tlsConnect, type ConnectionOptions, type TLSSocket } from 'node:tls';
import type { buildConnector } from 'undici';

/** Opens the TLS socket; `tls.connect` in production, a spy in tests. */
export type OpenSocket = (options: ConnectionOptions) => TLSSocket;

/** Decides, from the exact IP about to be dialled, whether a socket may be opened at all. */
export type ConnectGuard = (ip: string) => boolean;

/** What the connector did, for `fetcher.stats()`. */
export interface ConnectorCounters {
  /** Every time undici asked for a connection. */
  connectAttempts: number;
  /** Attempts the guard refused; no socket was opened for them. */
  refused: number;
  /** Sockets actually handed to `openSocket`. */
  socketsOpened: number;
}

/** Where one fetch may connect: the address that passed the URL rules, never a fresh lookup. */
export interface PinnedTarget {
  address: string;
  port: number;
  /** The host name for SNI and certificate checks; absent for IP literals (checked against the IP SAN). */
  servername?: string;
  /** Extra trust anchor, given only for the trusted fixture origin. */
  ca?: string | Buffer;
}

export const safetyNetReason = 'outbound connection refused by safety net';

/** The guard said no. Matched on `code`, not `instanceof`. */
export class OutboundConnectionRefusedError extends Error {
  readonly code = 'OUTBOUND_CONNECTION_REFUSED';
  constructor(readonly address: string) {
    super(`${safetyNetReason}: ${address}`);
    this.name = 'OutboundConnectionRefusedError';
  }
}

/**
 * An undici connector pinned to one checked address (spec "POST /tryons" rule 2: "must not point at a
 * private address" must hold for the address actually dialled, so there is no second lookup), with the
 * test safety net: `guard(ip)` runs before any socket exists, and a refusal never reaches `openSocket`.
 * The host undici asks for is ignored on purpose.
 */
export function createGuardedConnector(
  target: PinnedTarget,
  deps: { guard: ConnectGuard; counters: ConnectorCounters; openSocket?: OpenSocket; signal?: AbortSignal },
): buildConnector.connector {
  const openSocket = deps.openSocket ?? tlsConnect;
  return (_requested, callback) => {
    deps.counters.connectAttempts += 1;
    if (!deps.guard(target.address)) {
      deps.counters.refused += 1;
      callback(new OutboundConnectionRefusedError(target.address), null);
      return;
    }
    if (deps.signal?.aborted === true) {
      callback(asError(deps.signal.reason), null);
      return;
    }
    deps.counters.socketsOpened += 1;
    const socket = openSocket({
      host: target.address,
      port: target.port,
      ALPNProtocols: ['http/1.1'],
      ...(target.servername === undefined ? {} : { servername: target.servername }),
      ...(target.ca === undefined ? {} : { ca: target.ca }),
    });
    // tls.connect has no connect timeout of its own; the fetch deadline must also end a hung handshake.
    const onAbort = (): void => void socket.destroy(asError(deps.signal?.reason));
    deps.signal?.addEventListener('abort', onAbort, { once: true });
    let settled = false;
    const settle = (error: Error | null): void => {
      if (settled) return;
      settled = true;
      deps.signal?.removeEventListener('abort', onAbort);
      if (error === null) callback(null, socket);
      else callback(error, null);
    };
    socket.once('secureConnect', () => settle(null));
    // `on`, not `once`: a late second error on a failed socket must not become an unhandled 'error'.
    socket.on('error', (error: Error) => settle(error));
  };
}

function asError(reason: unknown): Error {
  return reason instanceof Error ? reason : new Error(String(reason ?? 'aborted'));
}
