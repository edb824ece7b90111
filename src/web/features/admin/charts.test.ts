import { describe, expect, it } from 'vitest';
import { niceMax } from '../../components/back-office/charts.tsx';
import { shortDay } from '../../components/back-office/format.ts';

describe('chart helpers', () => {
  it.each([
    [0, 1],
    [1, 1],
    [3, 5],
    [7, 10],
    [18300, 20000],
    [91698, 100000],
    [150, 200],
  ])('niceMax(%d) = %d', (value, max) => {
    expect(niceMax(value)).toBe(max);
  });

  it('labels days in UTC', () => {
    expect(shortDay('2026-11-03')).toBe('Nov 3');
  });
});
