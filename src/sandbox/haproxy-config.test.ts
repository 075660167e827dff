/** The balancer's haproxy.cfg (haproxy-config.ts): what the sandbox relies on is in the text. */
import { describe, expect, it } from 'vitest';
import { balancerTimeoutMs, haproxyConfig, specSyncWaitMs } from './haproxy-config.ts';
import { syncWaitOf } from './serve-flags.ts';
import { readinessDeadlineMs } from '../shared/readiness.ts';

const instances = [
  { name: 'i1', host: '127.0.0.1', port: 9001 },
  { name: 'i2', host: '127.0.0.1', port: 9002 },
  { name: 'i3', host: '127.0.0.1', port: 9003 },
];
const config = haproxyConfig({ bindHost: '127.0.0.1', bindPort: 8080, instances });
const lines = config.split('\n').map((line) => line.trim());

describe('haproxyConfig', () => {
  it('listens on one public port and spreads requests round-robin over every instance, checked on /readyz', () => {
    expect(lines).toContain('bind 127.0.0.1:8080');
    expect(lines).toContain('balance roundrobin');
    expect(lines).toContain('http-check send meth GET uri /readyz');
    expect(lines).toContain('http-check expect status 200');
    expect(lines.filter((l) => l.startsWith('server '))).toEqual([
      'server i1 127.0.0.1:9001',
      'server i2 127.0.0.1:9002',
      'server i3 127.0.0.1:9003',
    ]);
    expect(lines.some((l) => l.startsWith('default-server check ') && l.includes('fall 2'))).toBe(true);
  });

  it("waits for a readiness answer as long as the instance's own store probe may take", () => {
    const check = lines.find((l) => l.startsWith('timeout check '));
    expect(Number(/(\d+)ms/.exec(check ?? '')?.[1])).toBeGreaterThan(readinessDeadlineMs);
  });

  it('holds a request at least 70 s (a held sync is up to 55 s) and adds X-Forwarded-For', () => {
    expect(balancerTimeoutMs).toBeGreaterThanOrEqual(70_000);
    expect(lines).toContain(`timeout client ${balancerTimeoutMs}ms`);
    expect(lines).toContain(`timeout server ${balancerTimeoutMs}ms`);
    expect(lines).toContain('option forwardfor');
    // Nothing rewrites an instance's request or answer: the only rules touch haproxy's own answers,
    // marked by a header of their own (which is removed).
    expect(lines.filter((l) => /^http-(request|response) /.test(l))).toEqual([]);
    expect(lines.filter((l) => l.startsWith('http-after-response '))).toEqual([
      'http-after-response set-status 503 if { status 502 504 } { res.hdr(x-sandbox-balancer) -m found }',
      'http-after-response del-header x-sandbox-balancer',
    ]);
    expect(lines.filter((l) => l.startsWith('http-error ')).every((l) => l.endsWith(' hdr x-sandbox-balancer 1'))).toBe(
      true,
    );
  });

  it("outlasts the sync wait the instances were given, never less than the spec's hold", () => {
    const timeouts = (text: string) =>
      text
        .split('\n')
        .map((l) => /^\s*timeout (client|server) (\d+)ms$/.exec(l))
        .flatMap((m) => (m ? [Number(m[2])] : []));
    expect(timeouts(config)).toHaveLength(2);
    for (const ms of timeouts(config)) expect(ms).toBeGreaterThan(specSyncWaitMs);
    // An instance told to hold a sync 10 minutes is not cut off by the balancer at 2.
    const long = haproxyConfig({ bindHost: '127.0.0.1', bindPort: 8080, instances, syncWaitMs: 600_000 });
    expect(timeouts(long)).toHaveLength(2);
    for (const ms of timeouts(long)) expect(ms).toBeGreaterThan(600_000);
    const short = haproxyConfig({ bindHost: '127.0.0.1', bindPort: 8080, instances, syncWaitMs: 2_000 });
    expect(timeouts(short)).toEqual([balancerTimeoutMs, balancerTimeoutMs]);
  });

  it('reads the sync wait from the serve flags the sandbox passes on, as serve reads them', () => {
    expect(syncWaitOf([])).toBeUndefined();
    expect(syncWaitOf(['--log', '--sync-wait-ms', '600000'])).toBe(600_000);
    expect(syncWaitOf(['--sync-wait-ms=7000'])).toBe(7_000);
    expect(syncWaitOf(['--sync-wait-ms', '1', '--sync-wait-ms', '2'])).toBe(2);
    expect(syncWaitOf(['--sync-wait-ms', 'soon'])).toBeUndefined();
  });

  it("answers what haproxy says itself in the API's envelope, 503 with Retry-After (its 502 and 504 too)", () => {
    const unavailable = lines.find((l) => l.startsWith('http-error status 503 '));
    expect(unavailable).toBeDefined();
    const body = /string '([^']+)'/.exec(unavailable!)?.[1];
    expect(JSON.parse(body!)).toEqual({ error: expect.any(String), code: 'UNAVAILABLE' });
    expect(unavailable).toContain(' hdr retry-after 1 ');
  });

  it('leaves maxconn to the file-descriptor limit unless told', () => {
    expect(lines.some((l) => l.startsWith('maxconn'))).toBe(false);
    const told = haproxyConfig({ bindHost: '::1', bindPort: 8080, instances, maxConnections: 500 });
    expect(told).toContain('  maxconn 500\n');
    expect(told).toContain('bind [::1]:8080');
  });

  it.each([
    ['no instance', { instances: [] }],
    ['a name with a space', { instances: [{ name: 'i 1', host: '127.0.0.1', port: 1 }] }],
    ['a host name', { instances: [{ name: 'i1', host: 'localhost', port: 1 }] }],
    ['a port out of range', { bindPort: 70_000 }],
    ['a sync wait serve would refuse', { syncWaitMs: 600_001 }],
    ['a fractional sync wait', { syncWaitMs: 1.5 }],
  ])('refuses %s', (_, change) => {
    expect(() => haproxyConfig({ bindHost: '127.0.0.1', bindPort: 8080, instances, ...change })).toThrow(
      /^haproxy-config: /,
    );
  });
});
