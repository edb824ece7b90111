import { describe, expect, it } from 'vitest';
import { quote, planPrices } from './pricing.ts';
import { CURRENCIES, DEFAULT_CURRENCY, findCurrency } from './currencies.ts';
import { formatAmount, formatMoney } from './money.ts';

const usd = DEFAULT_CURRENCY;

describe('quote', () => {
  it('matches the spec example in USD without a code', () => {
    const q = quote(usd);
    expect(formatAmount(q.listPrice, usd)).toBe('999.00');
    expect(formatAmount(q.price, usd)).toBe('899.00');
    expect(formatAmount(q.fee, usd)).toBe('17.98');
    expect(formatAmount(q.total, usd)).toBe('916.98');
    expect(formatAmount(q.advance, usd)).toBe('183.00');
    expect(formatAmount(q.remaining, usd)).toBe('733.98');
  });

  it('matches the spec example in USD with 20% off', () => {
    const q = quote(usd, 20);
    expect(formatAmount(q.discount, usd)).toBe('179.80');
    expect(formatAmount(q.total, usd)).toBe('733.58');
    expect(formatAmount(q.advance, usd)).toBe('146.00');
    expect(formatAmount(q.remaining, usd)).toBe('587.58');
  });

  it.each([
    // currency, percent, price, discount, fee, total, advance
    ['USD', 5, 89900, 4495, 1708, 87113, 17400],
    ['INR', 0, 7641500, 0, 152830, 7794330, 1558800],
    ['INR', 20, 7641500, 1528300, 122264, 6235464, 1247000],
    ['EUR', 0, 85400, 0, 1708, 87108, 17400],
    ['GBP', 5, 71900, 3595, 1366, 69671, 13900],
  ] as const)('%s with %i%% off', (code, percent, price, discount, fee, total, advance) => {
    const q = quote(findCurrency(code)!, percent);
    expect(q).toMatchObject({ price, discount, fee, total, advance, remaining: total - advance });
  });

  it('always splits the total exactly into advance and remaining', () => {
    for (const c of CURRENCIES) {
      for (let p = 0; p <= 100; p += 5) {
        const q = quote(c, p);
        expect(q.advance + q.remaining).toBe(q.total);
        expect(Number.isInteger(q.advance) && Number.isInteger(q.remaining)).toBe(true);
        expect(q.advance % 10 ** c.minorDigits).toBe(0);
      }
    }
  });

  it('rounds the list price down after applying the factor', () => {
    expect(planPrices({ code: 'X', symbol: 'X', factor: 1.1, minorDigits: 2 })).toEqual({ listPrice: 109800, price: 98800 });
  });

  it('refuses impossible discounts', () => {
    expect(() => quote(usd, -1)).toThrow(RangeError);
    expect(() => quote(usd, 101)).toThrow(RangeError);
    expect(() => quote(usd, Number.NaN)).toThrow(RangeError);
  });
});

describe('formatMoney', () => {
  it('prints the symbol and grouped digits', () => {
    expect(formatMoney(91698, usd)).toBe('$916.98');
    expect(formatMoney(7794330, findCurrency('inr')!)).toBe('₹77,943.30');
  });
});
