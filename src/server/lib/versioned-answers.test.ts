import { describe, expect, it } from 'vitest';
import { versionedAnswers } from './versioned-answers.ts';

// The kept answers' own rules (docs/decisions/317-order-reads-table.md); the routes that use them are
// tested end to end in src/server/features/orders/order-reads.test.ts.
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

  it('is emptied when full rather than growing', () => {
    const answers = versionedAnswers(2);
    answers.keep('a', '1', 'A');
    answers.keep('b', '1', 'B');
    answers.keep('b', '2', 'B2');
    expect(answers.get('a', '1')).toBe('A');
    answers.keep('c', '1', 'C');
    expect(answers.get('a', '1')).toBeUndefined();
    expect(answers.get('c', '1')).toBe('C');
  });
});
