/** Making vitest without the signal listeners it adds: they exit the process before a report is written. */

const signals = ['SIGINT', 'SIGTERM'] as const;

/**
 * Creates something (a vitest instance) and removes the SIGINT and SIGTERM listeners it added:
 * vitest's own exit the process a millisecond after a signal, before any report could be written.
 */
export async function withoutSignalListeners<T>(create: () => Promise<T>): Promise<T> {
  const before = new Map(signals.map((s) => [s, new Set(process.listeners(s))]));
  const made = await create();
  for (const s of signals) for (const l of process.listeners(s)) if (!before.get(s)?.has(l)) process.off(s, l);
  return made;
}
