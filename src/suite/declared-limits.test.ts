/** `--limits` as the user writes it, and the limits the run then paces by and judges. */
import { describe, expect, it } from 'vitest';
import { describeDeclaredLimits, effectiveLimits, judgedLimit, parseDeclaredLimits } from './declared-limits.ts';

describe('parseDeclaredLimits', () => {
  it.each([
    ['starts=120,polls=600,uploads=300', { starts: 120, polls: 600, uploads: 300 }],
    ['starts=120', { starts: 120 }],
    [' uploads = 45 , starts=13 ', { uploads: 45, starts: 13 }],
    ['none', 'none'],
  ])('reads %s', (text, want) => {
    expect(parseDeclaredLimits(text)).toEqual(want);
  });

  it.each([
    ['', "'' is not starts=N, polls=N or uploads=N"],
    ['starts', "'starts' is not starts=N, polls=N or uploads=N"],
    ['tries=5', "'tries=5' is not starts=N, polls=N or uploads=N"],
    ['starts=-1', "'starts=-1' is not starts=N, polls=N or uploads=N"],
    ['starts=0', 'starts must be from 1 to 1000000'],
    ['starts=1,starts=2', 'starts is given twice'],
    ['none,starts=1', "'none' is not starts=N, polls=N or uploads=N"],
  ])('refuses %j', (text, error) => {
    expect(parseDeclaredLimits(text)).toEqual({ error });
  });
});

describe('the limits of a declaration', () => {
  it('paces by the declared figures and the documented rest; none paces nothing', () => {
    expect(effectiveLimits(undefined)).toEqual({ starts: 12, polls: 60, uploads: 30 });
    expect(effectiveLimits({ starts: 120 })).toEqual({ starts: 120, polls: 60, uploads: 30 });
    expect(effectiveLimits('none')).toEqual({ starts: Infinity, polls: Infinity, uploads: Infinity });
  });

  it('judges the declared figure, the documented one otherwise, and none under none', () => {
    expect(judgedLimit({ starts: 120 }, 'starts')).toEqual({ perMinute: 120, declared: true });
    expect(judgedLimit({ starts: 120 }, 'polls')).toEqual({ perMinute: 60, declared: false });
    expect(judgedLimit(undefined, 'uploads')).toEqual({ perMinute: 30, declared: false });
    expect(judgedLimit('none', 'starts')).toBeUndefined();
    expect(describeDeclaredLimits({ uploads: 3, starts: 1 })).toBe('starts=1, uploads=3');
  });
});
