/**
 * Held sync requests woken across instances (spec: POST /tryons/sync): the instance that finishes a try-on
 * sends NOTIFY on `tryon_finished` with its id (and drops its lease in the same statement); every instance
 * LISTENs and wakes its own waiters of that id, which re-read the store. A notice lost (the listening
 * connection dropped) is covered by a re-read every `rereadMs` of the try-ons held here, and at reconnect.
 */
import type { SyncWaiters } from '../domain/sync-waiters.ts';
import type { ClusterConnection } from './cluster-connection.ts';

export const finishedChannel = 'tryon_finished';

/** Ids one re-read asks about at most per query. */
const rereadChunk = 1_000;

export interface SyncWakeups {
  /** Tells every instance that `tryOnId` reached a final state. */
  finished(tryOnId: string): void;
  /** Wakes the held requests whose try-on is final already; returns how many try-ons. */
  reread(): Promise<number>;
  close(): void;
}

/** Wires `waiters` to the other instances' notices. */
export async function shareWakeups(
  conn: ClusterConnection,
  waiters: SyncWaiters,
  onError: (error: unknown) => void,
  rereadMs = 2_000,
): Promise<SyncWakeups> {
  await conn.listen(finishedChannel, (id) => waiters.notify(id));
  const reread = async (): Promise<number> => {
    const held = waiters.heldTryOnIds();
    let woken = 0;
    for (let i = 0; i < held.length; i += rereadChunk) {
      const rows = await conn.query<{ id: string }>(
        "SELECT id FROM tryons WHERE id = ANY($1::text[]) AND status <> 'pending'",
        [held.slice(i, i + rereadChunk)],
      );
      for (const { id } of rows) waiters.notify(id);
      woken += rows.length;
    }
    return woken;
  };
  conn.onReconnect(() => void reread().catch(onError));
  const timer = setInterval(() => void reread().catch(onError), rereadMs);
  timer.unref();
  return {
    finished(tryOnId) {
      conn
        .query(
          `WITH gone AS (DELETE FROM generation_leases WHERE tryon_id = $1)
          SELECT pg_notify('${finishedChannel}', $1)`,
          [tryOnId],
        )
        .catch(onError);
    },
    reread,
    close() {
      clearInterval(timer);
    },
  };
}
