import { describe, expect, it } from 'vitest';
import { cashbackCap, referralCashback, referralCodeFrom, normalizeCode } from './referral.ts';
import { findCurrency } from './currencies.ts';
import { quote } from './pricing.ts';

describe('referral cashback', () => {
  it.each([
    // currency, cap in minor units
    ['USD', 5000],
    ['INR', 425000],
    ['EUR', 4750],
    ['GBP', 4000],
    ['AED', 18350],
  ] as const)('caps at 50 × the factor in %s', (code, cap) => {
    const c = findCurrency(code)!;
    expect(cashbackCap(c)).toBe(cap);
    expect(referralCashback(cap + 1, c)).toBe(cap);
    expect(referralCashback(cap - 1, c)).toBe(cap - 1);
  });

  it("equals the buyer's 5% discount on the plan", () => {
    const usd = findCurrency('USD')!;
    expect(referralCashback(quote(usd, 5).discount, usd)).toBe(4495);
    expect(referralCashback(-3, usd)).toBe(0);
  });

  it('makes unambiguous codes', () => {
    expect(referralCodeFrom(new Uint8Array(8))).toBe('REFAAAAAAAA');
    expect(referralCodeFrom(new Uint8Array([255, 1, 2, 3, 4, 5, 6, 7]))).toMatch(/^REF[A-Z2-9]{8}$/);
    expect(normalizeCode('  ref abc ')).toBe('REF ABC');
  });
});
