import { describe, expect, it } from 'vitest';
import { versionedAnswers } from './versioned-answers.ts';

// The kept answers' own rules (docs/decisions/317-order-reads-table.md, 341-one-rule-per-derived-value.md);
// the routes that use them are tested end to end in src/server/features/orders/order-reads.test.ts.
describe('versionedAnswers', () => {
  it('answers only at the exact version it kept, and only before its clock turns', () => {
    const answers = versionedAnswers();
    answers.keep('a', '7', '{"n":7}', 1_000);
    expect(answers.get('a', '7', 999)).toBe('{"n":7}');
    expect(answers.get('a', '8', 999)).toBeUndefined();
    expect(answers.get('a', '6', 999)).toBeUndefined();
    expect(answers.get('a', '7', 1_000)).toBeUndefined();
    expect(answers.get('b', '7', 0)).toBeUndefined();
    answers.keep('a', '8', '{"n":8}');
    expect(answers.get('a', '8', Number.MAX_SAFE_INTEGER)).toBe('{"n":8}');
  });

  it('stays within its bytes by letting the least recently used answers go, one by one', () => {
    // Each entry: (1-char key + 9-char JSON) × 2 = 20 bytes; room for three.
    const answers = versionedAnswers(60);
    answers.keep('a', '1', 'AAAAAAAAA');
    answers.keep('b', '1', 'BBBBBBBBB');
    answers.keep('c', '1', 'CCCCCCCCC');
    expect(answers.bytes).toBe(60);
    // Read a: b is now the least recently used, and goes first; c stays.
    expect(answers.get('a', '1')).toBe('AAAAAAAAA');
    answers.keep('d', '1', 'DDDDDDDDD');
    expect(answers.get('b', '1')).toBeUndefined();
    expect(answers.get('a', '1')).toBe('AAAAAAAAA');
    expect(answers.get('c', '1')).toBe('CCCCCCCCC');
    expect(answers.get('d', '1')).toBe('DDDDDDDDD');
    expect(answers.bytes).toBe(60);
    // A new version of a kept key replaces it in place of adding; a larger answer makes room for itself.
    answers.keep('a', '2', 'AAAAAAAAA');
    expect(answers.bytes).toBe(60);
    answers.keep('e', '1', 'EEEEEEEEEEEEEEEEEEE');
    expect(answers.get('c', '1')).toBeUndefined();
    expect(answers.get('d', '1')).toBeUndefined();
    expect(answers.get('a', '2')).toBe('AAAAAAAAA');
    expect(answers.get('e', '1')).toBe('EEEEEEEEEEEEEEEEEEE');
    expect(answers.bytes).toBe(60);
    // An answer larger than the whole store is not kept, and drops nothing.
    answers.keep('f', '1', 'F'.repeat(100));
    expect(answers.get('f', '1')).toBeUndefined();
    expect(answers.get('a', '2')).toBe('AAAAAAAAA');
  });
});
