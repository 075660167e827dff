import { describe, expect, it } from 'vitest';
import type { Reporter } from 'vitest/node';
import { reporterGate } from './gated-reporter.ts';

describe('reporterGate', () => {
  it('passes nothing on until opened, then every hook its reporters have, to each', async () => {
    const heard: string[] = [];
    const a: Reporter = {
      onTestRunStart: () => void heard.push('a start'),
      onTestModuleCollected: () => void heard.push('a collected'),
    };
    const b: Reporter = { onTestModuleCollected: () => void heard.push('b collected') };
    const gate = reporterGate([a, b]);
    await gate.reporter.onTestModuleCollected?.({} as never);
    expect(heard).toEqual([]);
    gate.open();
    await gate.reporter.onTestRunStart?.([]);
    await gate.reporter.onTestModuleCollected?.({} as never);
    expect(heard).toEqual(['a start', 'a collected', 'b collected']);
  });

  it('has only the hooks of its reporters, and is no promise', () => {
    const gate = reporterGate([{ onTestRunEnd: () => undefined }]);
    expect(gate.reporter.onTestRunEnd).toBeTypeOf('function');
    expect(gate.reporter.onInit).toBeUndefined();
    expect((gate.reporter as { then?: unknown }).then).toBeUndefined();
  });

  it('calls each hook on its own reporter', async () => {
    class Counting implements Reporter {
      count = 0;
      onTestRunStart(): void {
        this.count++;
      }
    }
    const r = new Counting();
    const gate = reporterGate([r]);
    gate.open();
    await gate.reporter.onTestRunStart?.([]);
    expect(r.count).toBe(1);
  });
});
