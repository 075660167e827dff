import { describe, expect, it } from 'vitest';
import type { DecodeOutcome } from './decode-pool.ts';
import { rememberingDecodes } from './decode-verdicts.ts';

/** A decoder that answers from a script, and counts what it was asked. */
function scripted(answer: (bytes: Buffer, owner: string) => DecodeOutcome) {
  const calls: Array<{ bytes: string; owner: string }> = [];
  const decode = rememberingDecodes(async (bytes, owner) => {
    calls.push({ bytes: bytes.toString(), owner });
    return answer(bytes, owner);
  }, 2);
  return { decode, calls };
}

const ok: DecodeOutcome = { ok: true };
const image = (text: string) => Buffer.from(text);

describe('rememberingDecodes', () => {
  it('answers bytes a decode went through without decoding them again, whichever account sends them', async () => {
    const { decode, calls } = scripted(() => ok);
    expect(await decode(image('photo'), 'a')).toEqual(ok);
    expect(await decode(image('photo'), 'a')).toEqual(ok);
    expect(await decode(image('photo'), 'b')).toEqual(ok);
    expect(calls).toEqual([{ bytes: 'photo', owner: 'a' }]);
    // Other bytes, even one byte longer, are decoded.
    expect(await decode(image('photo!'), 'a')).toEqual(ok);
    expect(calls).toHaveLength(2);
  });

  it('never reuses a decode that failed, ran out of time or found the queue full', async () => {
    const outcomes: DecodeOutcome[] = [
      { ok: false, kind: 'corrupt', reason: 'truncated' },
      { ok: false, kind: 'deadline', reason: 'too slow' },
      { ok: false, kind: 'busy', reason: 'queue full' },
      ok,
    ];
    const { decode, calls } = scripted(() => outcomes[calls.length - 1] ?? ok);
    expect(await decode(image('x'), 'a')).toMatchObject({ ok: false, kind: 'corrupt' });
    expect(await decode(image('x'), 'a')).toMatchObject({ ok: false, kind: 'deadline' });
    // Another account is not answered with the first account's full queue: its own decode runs.
    expect(await decode(image('x'), 'a')).toMatchObject({ ok: false, kind: 'busy' });
    expect(await decode(image('x'), 'b')).toEqual(ok);
    expect(calls.map((c) => c.owner)).toEqual(['a', 'a', 'a', 'b']);
    expect(decode.remembered()).toBe(1);
  });

  it('keeps the most recently used entries up to its bound', async () => {
    const { decode, calls } = scripted(() => ok);
    await decode(image('one'), 'a');
    await decode(image('two'), 'a');
    await decode(image('one'), 'a'); // one is now the most recently used
    await decode(image('three'), 'a'); // two goes
    expect(decode.remembered()).toBe(2);
    await decode(image('one'), 'a');
    await decode(image('two'), 'a');
    expect(calls.map((c) => c.bytes)).toEqual(['one', 'two', 'three', 'two']);
  });
});
