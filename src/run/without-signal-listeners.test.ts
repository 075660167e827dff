import { describe, expect, it } from 'vitest';
import { withoutSignalListeners } from './without-signal-listeners.ts';

describe('withoutSignalListeners', () => {
  it('removes the SIGINT and SIGTERM listeners something added while being made, and keeps the others', async () => {
    const count = (): number => process.listenerCount('SIGINT') + process.listenerCount('SIGTERM');
    const kept = (): void => undefined;
    process.on('SIGTERM', kept);
    const before = count();
    try {
      const made = await withoutSignalListeners(async () => {
        process.once('SIGINT', () => undefined);
        return 'made';
      });
      const after = { made, listeners: count(), kept: process.listeners('SIGTERM').includes(kept) };
      expect(after).toEqual({ made: 'made', listeners: before, kept: true });
    } finally {
      process.off('SIGTERM', kept);
    }
  });
});
