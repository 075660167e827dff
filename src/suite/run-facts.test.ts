import { appendFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { becauseOf, RunFacts } from './run-facts.ts';

const dirs: string[] = [];
function factsFile(): string {
  const dir = mkdtempSync(join(tmpdir(), 'run-facts-test-'));
  dirs.push(dir);
  return join(dir, 'facts.jsonl');
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('RunFacts', () => {
  test('a fact one worker learns is known to another through the shared file, with the test that learned it', () => {
    const file = factsFile();
    const one = new RunFacts(file);
    const other = new RunFacts(file);
    expect(other.known('tryons-stay-pending')).toBeUndefined();
    one.learn('tryons-stay-pending', 'try-on ton_1 was still pending after 150 s of polling', 'sync > a test');
    expect(other.known('tryons-stay-pending')).toEqual({
      fact: 'tryons-stay-pending',
      statement: 'try-ons on this target stayed pending for the whole give-up time',
      seen: 'try-on ton_1 was still pending after 150 s of polling',
      test: 'sync > a test',
    });
  });

  test('a fact stays as it was first learned: a second test learning it again changes nothing', () => {
    const file = factsFile();
    new RunFacts(file).learn('same-answer-every-time', 'first sight', 'first test');
    const again = new RunFacts(file).learn('same-answer-every-time', 'second sight', 'second test');
    expect(again.test).toBe('first test');
    expect(readFileSync(file, 'utf8').trim().split('\n')).toHaveLength(1);
  });

  test('the running test keeps what it learned in its meta, for the report', ({ task }) => {
    new RunFacts(undefined).learn('starts-not-limited', '13 start requests within 2 s drew no 429');
    expect(task.meta.learned).toEqual([
      expect.objectContaining({ fact: 'starts-not-limited', test: task.fullTestName }),
    ]);
  });

  test('a line cut short, or one naming no known fact, is no fact', () => {
    const file = factsFile();
    appendFileSync(file, '{"fact":"tryons-stay-pen\n{"fact":"made-up","seen":"x","test":"t"}\n');
    expect(new RunFacts(file).known('tryons-stay-pending')).toBeUndefined();
    expect(new RunFacts(file).known('made-up' as never)).toBeUndefined();
  });

  test('without a shared file, facts stay in the process that learned them', () => {
    new RunFacts(undefined).learn('tryons-stay-pending', 'seen', 'a test');
    expect(new RunFacts(undefined).known('tryons-stay-pending')).toBeUndefined();
  });

  test('a long sight of the target is clipped', () => {
    const fact = new RunFacts(undefined).learn('same-answer-every-time', 'x'.repeat(5000), 'a test');
    expect(fact.seen.length).toBeLessThanOrEqual(300);
  });

  test('the reason a later test gives names what it needed, the fact, and the test that learned it', () => {
    const fact = new RunFacts(undefined).learn('tryons-stay-pending', 'ton_1 pending after 150 s', 'sync > first');
    expect(becauseOf(fact, 'try-on ton_2 is pending, and was not waited for')).toBe(
      'try-on ton_2 is pending, and was not waited for: try-ons on this target stayed pending for the whole ' +
        'give-up time (ton_1 pending after 150 s), as "sync > first" learned earlier in this run',
    );
  });

  test('a facts file that cannot be written leaves the fact with the worker that learned it, and fails nothing', () => {
    const facts = new RunFacts(join(factsFile(), 'not-a-folder', 'facts.jsonl'));
    expect(facts.learn('tryons-stay-pending', 'seen', 'a test').test).toBe('a test');
    expect(facts.known('tryons-stay-pending')?.seen).toBe('seen');
  });
});
