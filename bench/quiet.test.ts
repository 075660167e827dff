import { describe, expect, it } from 'vitest';
import { cpuTicks, waitQuiet } from './quiet.ts';

describe('waitQuiet', () => {
  it('reads the CPU ticks of a running process on Linux, and nothing for a process that is not there', () => {
    if (process.platform === 'linux') expect(cpuTicks(process.pid)).toBeGreaterThanOrEqual(0);
    expect(cpuTicks(2 ** 22 + 12_345)).toBeUndefined();
  });

  it('returns at once when none of the processes exists', async () => {
    expect(await waitQuiet([2 ** 22 + 12_345], { maxMs: 5_000 })).toBe(0);
  });
});
