import { describe, expect, it } from 'vitest';
import { roundsInSeries } from './screens.ts';

describe('bench/screens.ts: requests in series', () => {
  it('counts one request per held-back delay that the content came later by', () => {
    expect(roundsInSeries(800, 800, 1000)).toBe(0);
    // The session's check, then the profile: two delays.
    expect(roundsInSeries(800, 2830, 1000)).toBe(2);
    // Noise under half a delay either way does not change the count.
    expect(roundsInSeries(900, 3450, 1000)).toBe(3);
    expect(roundsInSeries(900, 3350, 1000)).toBe(2);
    // A delayed run that came sooner than the plain median (a busy moment in the plain runs) is 0, not negative.
    expect(roundsInSeries(1500, 1100, 1000)).toBe(0);
  });
});
