import { describe, expect, it } from 'vitest';
import { controlCallOf } from './control-calls.ts';
import { digestOf, made, revoked, rotated } from './control-fakes.ts';
import { KeyBook } from './key-book.ts';
import { viewOf } from '../traffic-view.ts';
import { isAnswered, type TrafficExchange } from '../traffic-exchange.ts';

function learnt(traffic: readonly TrafficExchange[]): KeyBook {
  const book = new KeyBook(10);
  for (const te of traffic) {
    if (!isAnswered(te)) continue;
    const call = controlCallOf(viewOf(te), '/api/v1');
    if (call !== undefined) book.learn(call, te.endedAt);
  }
  return book;
}

describe('key book', () => {
  it('names an account by its first key, whichever of its keys a request carries', () => {
    const book = learnt([made('acct_1', 'vto_live_first', 0), rotated('acct_1', 'vto_live_second', 1)]);
    expect(book.accountOf(digestOf('vto_live_second'))).toBe(digestOf('vto_live_first'));
    expect(book.accountNamed('acct_1')).toBe(digestOf('vto_live_first'));
    expect(book.tied(digestOf('vto_live_second'))).toBe(true);
  });

  it('retires the replaced key as rotated and the revoked one as revoked, from the end of the answer', () => {
    const rotation = rotated('acct_1', 'vto_live_second', 1);
    const book = learnt([made('acct_1', 'vto_live_first', 0), rotation, revoked('acct_1', 2)]);
    expect(book.retired(digestOf('vto_live_first'))).toEqual({ how: 'rotated', at: rotation.endedAt });
    expect(book.retired(digestOf('vto_live_second'))?.how).toBe('revoked');
  });

  it('keys no control answer tied stay their own account', () => {
    const book = learnt([made('acct_1', 'vto_live_first', 0)]);
    expect(book.accountOf(digestOf('vto_live_other'))).toBe(digestOf('vto_live_other'));
    expect(book.tied(digestOf('vto_live_other'))).toBe(false);
  });
});
