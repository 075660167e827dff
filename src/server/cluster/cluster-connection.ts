/**
 * One instance's connections to the database it shares with other instances: a pool for the shared state
 * (cluster/*), one dedicated connection that LISTENs for other instances' notices (reconnected after a
 * loss, when `onReconnect` handlers re-read what a lost notice may have said), and this instance's
 * heartbeat, which keeps its generation leases and key claims alive (`alive_until`, database time).
 */
import { randomBytes } from 'node:crypto';
import { type PgModule, type Pool, openPool, run } from '../store/pg-connect.ts';

export interface ClusterConnection {
  /** This process's id among the instances: the owner of its leases and claims. */
  readonly instanceId: string;
  /** How long a lease outlives this instance's last heartbeat. */
  readonly leaseMs: number;
  query<R extends object>(sql: string, values?: readonly unknown[]): Promise<R[]>;
  /** `query` for a fixed statement run by many requests: prepared once per connection, then only bound and run. */
  queryPrepared<R extends object>(sql: string, values?: readonly unknown[]): Promise<R[]>;
  /** Calls `handler` with the payload of each notice on `channel` (a fixed identifier). */
  listen(channel: string, handler: (payload: string) => void): Promise<void>;
  /** Calls `handler` each time the listening connection is back after a loss. */
  onReconnect(handler: () => void): void;
  close(): Promise<void>;
}

export interface ClusterConnectionOptions {
  /** The instance's name (serve --instance), kept with its heartbeat for people reading the table. */
  readonly name: string;
  readonly leaseMs: number;
  readonly poolSize?: number;
  /** Told about a background failure (a lost listener, a failed heartbeat); the work goes on. */
  readonly onError: (error: unknown) => void;
}

const reconnectMs = 1_000;

/** Connects, writes the first heartbeat and starts listening; the heartbeat repeats every third of the lease. */
export async function openClusterConnection(
  pgModule: PgModule,
  url: string,
  options: ClusterConnectionOptions,
): Promise<ClusterConnection> {
  const pool: Pool = openPool(pgModule, url, options.poolSize ?? 10);
  const instanceId = `${options.name.slice(0, 40)}-${randomBytes(6).toString('hex')}`;
  const query = async <R extends object>(sql: string, values: readonly unknown[] = []): Promise<R[]> =>
    (await pool.query<R>(sql, [...values])).rows;
  const heartbeat = () =>
    query(
      `INSERT INTO cluster_instances (id, name, alive_until) VALUES ($1, $2, tryon_db_ms() + $3)
      ON CONFLICT (id) DO UPDATE SET alive_until = EXCLUDED.alive_until`,
      [instanceId, options.name, options.leaseMs],
    );
  await heartbeat();
  const beat = setInterval(() => heartbeat().catch(options.onError), Math.max(50, Math.floor(options.leaseMs / 3)));
  beat.unref();

  const handlers = new Map<string, (payload: string) => void>();
  const reconnected: Array<() => void> = [];
  let listener: InstanceType<PgModule['Client']> | undefined;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;
  const connectListener = async (): Promise<void> => {
    const client = new pgModule.Client({ connectionString: url });
    const lost = (error?: unknown) => {
      if (listener !== client) return;
      listener = undefined;
      client.end().catch(() => undefined);
      if (closed) return;
      if (error) options.onError(error);
      retry = setTimeout(() => connectListener().then(() => reconnected.forEach((h) => h()), lost), reconnectMs);
      retry.unref();
    };
    client.on('notification', (message) => handlers.get(message.channel)?.(message.payload ?? ''));
    client.on('error', lost);
    client.on('end', () => lost());
    listener = client;
    await client.connect();
    for (const channel of handlers.keys()) await client.query(`LISTEN ${channel}`);
  };
  await connectListener();

  return {
    instanceId,
    leaseMs: options.leaseMs,
    query,
    queryPrepared: async <R extends object>(sql: string, values: readonly unknown[] = []): Promise<R[]> =>
      (await run<R>(pool, sql, values)).rows,
    async listen(channel, handler) {
      if (!/^[a-z_]+$/.test(channel)) throw new Error(`not a channel name: ${channel}`);
      handlers.set(channel, handler);
      await listener?.query(`LISTEN ${channel}`);
    },
    onReconnect(handler) {
      reconnected.push(handler);
    },
    async close() {
      closed = true;
      clearInterval(beat);
      clearTimeout(retry);
      const client = listener;
      listener = undefined;
      await client?.end().catch(() => undefined);
      // Gone at once: the other instances take over this one's pending try-ons without waiting out the lease.
      await query('DELETE FROM cluster_instances WHERE id = $1', [instanceId]).catch(() => undefined);
      await pool.end();
    },
  };
}
