import { describe, expect, it } from 'vitest';
import { countdown, formatCountdown, isPromotionActive } from './promotion.ts';

const END = Date.parse('2025-01-31T23:59:59Z');

describe('countdown (spec §4)', () => {
  it.each([
    ['2025-01-01T00:00:00Z', '30d 23h 59m 59s'],
    ['2025-01-31T23:59:00Z', '0d 00h 00m 59s'],
    ['2025-01-31T23:59:59Z', '0d 00h 00m 00s'],
    ['2025-01-30T22:58:57.500Z', '1d 01h 01m 01s'],
    ['2025-02-01T00:00:00Z', 'Offer expired!'],
    ['2026-11-22T00:00:00Z', 'Offer expired!'],
  ])('at %s shows %s', (now, text) => {
    expect(formatCountdown(countdown(END, Date.parse(now)))).toBe(text);
  });
  it('treats an unparsable end as expired', () => expect(countdown(Number.NaN, 0).expired).toBe(true));
  it('knows whether a promotion is active', () => {
    expect(isPromotionActive('2025-01-31T23:59:59.000Z', Date.parse('2025-01-31T23:59:59Z'))).toBe(true);
    expect(isPromotionActive('2025-01-31T23:59:59.000Z', Date.parse('2025-02-01T00:00:00Z'))).toBe(false);
    expect(isPromotionActive(null, Date.now())).toBe(true);
  });
});
