import { describe, expect, it } from 'vitest';
import { currencyForCountry, parseCurrencyTable } from './currencies.ts';
import { quote } from './pricing.ts';
import { formatMoney } from './money.ts';

describe('currency table', () => {
  it('picks the currency of the visitor country, else the default', () => {
    expect(currencyForCountry('in').code).toBe('INR');
    expect(currencyForCountry('DE').code).toBe('EUR');
    expect(currencyForCountry('US').code).toBe('USD');
    expect(currencyForCountry(null).code).toBe('USD');
    expect(currencyForCountry('India').code).toBe('INR');
    expect(currencyForCountry('France').code).toBe('EUR');
    expect(currencyForCountry('Japan').code).toBe('USD');
    const table = parseCurrencyTable('[{"code":"GBP","symbol":"£","factor":0.8,"minorDigits":2}]');
    expect(currencyForCountry('IN', table).code).toBe('GBP');
  });

  it.each([
    ['not json', /JSON/],
    ['[]', /non-empty/],
    ['[{"code":"usd","symbol":"$","factor":1,"minorDigits":2}]', /entry 0/],
    ['[{"code":"USD","symbol":"$","factor":0,"minorDigits":2}]', /entry 0/],
    ['[{"code":"USD","symbol":"$","factor":1,"minorDigits":1}]', /entry 0/],
    ['[{"code":"USD","symbol":"$","factor":1,"minorDigits":2},{"code":"USD","symbol":"$","factor":2,"minorDigits":2}]', /twice/],
  ])('refuses a bad table: %s', (json, message) => {
    expect(() => parseCurrencyTable(json)).toThrow(message);
  });
});

describe('quote in more currencies', () => {
  it.each([
    // code, symbol, factor, digits, percent, price, discount, fee, total, advance
    ['JPY', '¥', 150, 0, 0, 134850, 0, 2697, 137547, 27509],
    ['JPY', '¥', 150, 0, 5, 134850, 6743, 2562, 130669, 26133],
    ['KWD', 'KD ', 0.31, 3, 20, 278000, 55600, 4448, 226848, 45000],
    ['INR', '₹', 85, 2, 5, 7641500, 382075, 145189, 7404614, 1480900],
  ] as const)(
    '%s (%s ×%d, %d digits) with %i%% off',
    (code, symbol, factor, minorDigits, percent, price, discount, fee, total, advance) => {
      const q = quote({ code, symbol, factor, minorDigits }, percent);
      expect(q).toMatchObject({ price, discount, fee, total, advance, remaining: total - advance });
      expect(q.advance % 10 ** minorDigits).toBe(0);
    },
  );

  it('formats zero- and three-digit currencies', () => {
    expect(formatMoney(137547, { symbol: '¥', minorDigits: 0 })).toBe('¥137,547');
    expect(formatMoney(226848, { symbol: 'KD ', minorDigits: 3 })).toBe('KD 226.848');
  });
});
