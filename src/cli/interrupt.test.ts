import { describe, expect, it } from 'vitest';
import { runStopSignal, stoppedBecause } from '../client/run-stop.ts';
import { RunStop, exitStatusOfInterruption } from './interrupt.ts';

describe('RunStop', () => {
  it('stops at the wall-time bound like a signal, with the reason and exit 2, cancelling the suite once', async () => {
    const lines: string[] = [];
    const cancels: string[] = [];
    const stop = new RunStop((line) => lines.push(line));
    stop.attach((reason) => cancels.push(reason));
    stop.boundWallTime(30);
    while (stop.stopped === undefined) await new Promise((r) => setTimeout(r, 10));
    stop.stop('stopped by SIGINT (Ctrl-C)', 'SIGINT'); // a later stop changes nothing
    stop.dispose();
    expect({
      reason: stop.stopped.reason,
      signal: stop.stopped.signal,
      exit: exitStatusOfInterruption(stop.stopped),
      cancels,
    }).toEqual({
      reason: "the run's wall-time bound of 0 min was reached",
      signal: undefined,
      exit: 2,
      cancels: ["the run's wall-time bound of 0 min was reached"],
    });
    // Every request of this process stops with it.
    expect(stoppedBecause(runStopSignal)).toBe("the run's wall-time bound of 0 min was reached");
    expect(lines.join('\n')).toMatch(/stopping every request; writing the partial report \(exit 2\)/);
  });

  it('gives 130 for a signal, SIGTERM included, and cancels a suite attached after the stop at once', () => {
    const stop = new RunStop(() => undefined);
    stop.stop('stopped by SIGTERM', 'SIGTERM');
    const cancels: string[] = [];
    stop.attach((reason) => cancels.push(reason));
    expect({ exit: stop.stopped && exitStatusOfInterruption(stop.stopped), cancels }).toEqual({
      exit: 130,
      cancels: ['stopped by SIGTERM'],
    });
  });

  it('listens to SIGINT and SIGTERM until disposed', () => {
    const count = (): number => process.listenerCount('SIGINT') + process.listenerCount('SIGTERM');
    const before = count();
    const stop = new RunStop(() => undefined).listen();
    expect(count()).toBe(before + 2);
    stop.dispose();
    expect(count()).toBe(before);
  });
});
