import { EventEmitter } from 'node:events';
import type { ConnectionOptions, TLSSocket } from 'node:tls';
import type { buildConnector } from 'undici';
import { describe, expect, it, vi } from 'vitest';
import {
  createGuardedConnector,
  safetyNetReason,
  type ConnectorCounters,
  type OpenSocket,
} from './guarded-connector.ts';
import { createImageFetcher, loopbackOnlyGuard } from './image-fetcher.ts';
import type { Resolver } from './resolver.ts';
import { staticResolver } from './resolver.ts';

// Design brief, "Safety on these machines": the guard stands apart from the SSRF rules, so these tests
// reach it with the rules out of the way and prove that no socket is ever handed to `openSocket`.

const undiciAsks: buildConnector.Options = { hostname: 'ignored.example', protocol: 'https:', port: '443' };

/** Records what would have been dialled; the fake socket connects, or fails at once so a mutant fails fast. */
function spySocket(then: 'secureConnect' | 'error' = 'error'): OpenSocket & { calls: ConnectionOptions[] } {
  const calls: ConnectionOptions[] = [];
  const open = (options: ConnectionOptions): TLSSocket => {
    calls.push(options);
    const fake = new EventEmitter() as unknown as TLSSocket;
    queueMicrotask(() => fake.emit(then, new Error('spy socket: nothing was dialled')));
    return fake;
  };
  return Object.assign(open, { calls });
}

function connectOnce(connect: buildConnector.connector): Promise<Error | null> {
  return new Promise((resolve) => connect(undiciAsks, (...args) => resolve(args[0])));
}

const zero = (): ConnectorCounters => ({ connectAttempts: 0, refused: 0, socketsOpened: 0 });

describe('createGuardedConnector', () => {
  const refused: [string, string][] = [
    ['a public IPv4', '93.184.216.34'],
    ['a private IPv4', '10.0.0.1'],
    ['cloud metadata', '169.254.169.254'],
    ['IPv4-mapped private', '::ffff:10.0.0.1'],
    ['IPv4-compatible 127.0.0.1 (not loopback)', '::127.0.0.1'],
    ['a public IPv6', '2606:4700::1111'],
  ];
  it.each(refused)('refuses %s before any socket is opened', async (_name, address) => {
    const openSocket = spySocket();
    const counters = zero();
    const connect = createGuardedConnector(
      { address, port: 443, servername: 'images.example.com' },
      { guard: loopbackOnlyGuard, counters, openSocket },
    );
    const error = await connectOnce(connect);
    expect(error).toMatchObject({ code: 'OUTBOUND_CONNECTION_REFUSED', address });
    expect(openSocket.calls).toEqual([]);
    expect(counters).toEqual({ connectAttempts: 1, refused: 1, socketsOpened: 0 });
  });

  it('dials the pinned address, not the host undici asks for, with SNI and the extra CA', async () => {
    const openSocket = spySocket('secureConnect');
    const counters = zero();
    const connect = createGuardedConnector(
      { address: '127.0.0.1', port: 8443, servername: 'fixtures.test', ca: 'PEM' },
      { guard: loopbackOnlyGuard, counters, openSocket },
    );
    expect(await connectOnce(connect)).toBeNull();
    expect(openSocket.calls).toEqual([
      expect.objectContaining({ host: '127.0.0.1', port: 8443, servername: 'fixtures.test', ca: 'PEM' }),
    ]);
    expect(counters).toEqual({ connectAttempts: 1, refused: 0, socketsOpened: 1 });
  });
});

describe('image fetcher safety net', () => {
  const rows: [string, { url: string; resolver: Resolver; trusted?: string; dialled: string }][] = [
    [
      'a public name that passes the SSRF rules',
      {
        url: 'https://images.example.com/a.jpg',
        resolver: staticResolver({ 'images.example.com': ['93.184.216.34'] }),
        dialled: '93.184.216.34',
      },
    ],
    [
      'a public IPv6 literal',
      { url: 'https://[2606:4700::1111]/a.jpg', resolver: staticResolver({}), dialled: '2606:4700::1111' },
    ],
    [
      'a trusted origin (rules bypassed) whose name maps to 10.0.0.1',
      {
        url: 'https://fixtures.test:8443/a.jpg',
        resolver: staticResolver({ 'fixtures.test': ['10.0.0.1'] }),
        trusted: 'https://fixtures.test:8443',
        dialled: '10.0.0.1',
      },
    ],
    [
      'a trusted origin (rules bypassed) that is a private IP literal',
      {
        url: 'https://10.0.0.1:8443/a.jpg',
        resolver: staticResolver({}),
        trusted: 'https://10.0.0.1:8443',
        dialled: '10.0.0.1',
      },
    ],
  ];
  it.each(rows)('refuses %s, and opens no socket', async (_name, { url, resolver, trusted, dialled }) => {
    const openSocket = spySocket();
    const guard = vi.fn(loopbackOnlyGuard);
    const fetcher = createImageFetcher({
      resolver,
      connectGuard: guard,
      openSocket,
      ...(trusted === undefined ? {} : { trustedOrigin: { origin: trusted, ca: 'unused' } }),
    });
    expect(await fetcher.fetchImage(url)).toEqual({
      ok: false,
      code: 'IMAGE_DOWNLOAD_FAILED',
      reason: safetyNetReason,
    });
    expect(guard.mock.calls).toEqual([[dialled]]);
    expect(openSocket.calls).toEqual([]);
    expect(fetcher.stats()).toMatchObject({ connectAttempts: 1, refused: 1, socketsOpened: 0 });
  });

  it('pins the first lookup: a resolver that changes its answer is asked once and its second answer never dialled', async () => {
    const answers = [['93.184.216.34'], ['127.0.0.1']];
    const resolver = vi.fn<Resolver>(async () => answers.shift() ?? []);
    const guard = vi.fn(loopbackOnlyGuard);
    const openSocket = spySocket();
    const fetcher = createImageFetcher({ resolver, connectGuard: guard, openSocket });

    expect(await fetcher.fetchImage('https://rebind.example.com/a.jpg')).toMatchObject({
      code: 'IMAGE_DOWNLOAD_FAILED',
      reason: safetyNetReason,
    });
    expect(resolver).toHaveBeenCalledTimes(1);
    expect(guard.mock.calls).toEqual([['93.184.216.34']]);
    expect(openSocket.calls).toEqual([]);
  });
});
