/** `serve --slow-generation-ms`: the latency of a `slow-generation` scenario image, bounded like the other waits. */
import { describe, expect, it } from 'vitest';
import { serveOptions } from './serve.ts';

describe('serve --slow-generation-ms', () => {
  it('sets the slow-generation latency', () => {
    const parsed = serveOptions(['--slow-generation-ms', '7000', '--no-control'], {});
    if (parsed === 'help') throw new Error('unexpected help');
    expect(parsed.options.settings?.slowGenerationMs).toBe(7000);
  });

  it('keeps the default without the flag', () => {
    const parsed = serveOptions(['--no-control'], {});
    if (parsed === 'help') throw new Error('unexpected help');
    expect(parsed.options.settings?.slowGenerationMs).toBe(70_000);
  });

  it('refuses a value that is not a whole number of milliseconds in range', () => {
    expect(() => serveOptions(['--slow-generation-ms', '-1'], {})).toThrow(/--slow-generation-ms/);
    expect(() => serveOptions(['--slow-generation-ms', 'soon'], {})).toThrow(/--slow-generation-ms/);
  });
});
