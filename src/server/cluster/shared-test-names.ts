/**
 * Test names (openapi-control.yaml, `PUT /_control/names/{name}`) shared by every instance: a name set
 * through one instance resolves on all, since the table is a database table read at each resolution of a
 * `.test` name. Bounded as the in-process table is: past `maxTestNames`, the oldest set go.
 */
import { maxTestNames, type NameTable, testName } from '../domain/image-fetch/test-names.ts';
import type { Resolver } from '../domain/image-fetch/resolver.ts';
import type { ClusterConnection } from './cluster-connection.ts';

export class SharedTestNames implements NameTable {
  constructor(private readonly conn: ClusterConnection) {}

  async set(name: string, addresses: readonly string[]): Promise<void> {
    await this.conn.query(
      `INSERT INTO test_names (name, addresses) VALUES ($1, $2::jsonb) ON CONFLICT (name)
      DO UPDATE SET addresses = EXCLUDED.addresses, seq = nextval(pg_get_serial_sequence('test_names', 'seq'))`,
      [name, JSON.stringify(addresses)],
    );
    await this.conn.query(
      'DELETE FROM test_names WHERE seq <= (SELECT seq FROM test_names ORDER BY seq DESC OFFSET $1 LIMIT 1)',
      [maxTestNames],
    );
  }

  async get(name: string): Promise<readonly string[] | undefined> {
    const [row] = await this.conn.query<{ addresses: string[] }>('SELECT addresses FROM test_names WHERE name = $1', [
      name,
    ]);
    return row?.addresses;
  }

  resolver(fallback: Resolver): Resolver {
    return async (hostname) => {
      const name = testName(hostname);
      return (name === undefined ? undefined : await this.get(name)) ?? fallback(hostname);
    };
  }
}
