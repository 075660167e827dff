/** An example mock told by its uploads: two different images answered with one image id; the same image twice is not. */
import { describe, expect, it } from 'vitest';
import { runFacts } from './run-facts.ts';
import { noteUploaded } from './same-answer.ts';

describe('noteUploaded', () => {
  it('learns nothing from the same image answered twice with one id, nor from ids that are not strings', () => {
    noteUploaded('digest-a', 'img_1');
    noteUploaded('digest-a', 'img_1');
    noteUploaded('digest-b', 42);
    noteUploaded('digest-c', 'img_2');
    expect(runFacts().known('same-answer-every-time')).toBeUndefined();
  });

  it('learns that the target answers every body alike from two different images answered with one id', () => {
    noteUploaded('digest-d', 'img_1');
    expect(runFacts().known('same-answer-every-time')?.seen).toBe(
      'two different images uploaded were both answered image "img_1"',
    );
  });
});
