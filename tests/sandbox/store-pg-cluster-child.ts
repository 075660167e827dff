/** Starts a cluster, prints its folder and port, and exits without stop() (store-pg-cluster.test.ts). */
import { startPgCluster } from '../../src/sandbox/pg-cluster.ts';

const cluster = await startPgCluster();
process.stdout.write(`${JSON.stringify({ dir: cluster.dir, url: cluster.url })}\n`);
process.exit(0);
