import { describe, expect, it } from 'vitest';
import { seriesDepth } from './screens.ts';

describe('bench/screens.ts: requests in series', () => {
  it('counts a request that started after another ended as waiting on it; overlapping ones run side by side', () => {
    const session = { what: 'verify', start: 0, end: 10 };
    const profile = { what: 'profile', start: 11, end: 20 };
    const coupons = { what: 'coupons', start: 11, end: 22 };
    const status = { what: 'status', start: 2, end: 15 };
    expect(seriesDepth([])).toBe(0);
    expect(seriesDepth([session, status])).toBe(1);
    expect(seriesDepth([session, profile, coupons, status])).toBe(2);
    expect(seriesDepth([session, profile, { what: 'tab', start: 21, end: 30 }])).toBe(3);
  });
});
