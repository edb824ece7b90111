import { describe, expect, it } from 'vitest';
import { type PriceFigures, discountLabel, orderPriceFigures, priceLines } from './price-lines.ts';
import { quote } from './pricing.ts';
import { CURRENCIES } from './currencies.ts';
import type { TaxSettings } from './gst.ts';

// The one description of an order's price (docs/decisions/333-amount-words-and-price-lines.md): the
// quote, the pay screen, the receipt voucher, the invoice and the ledger take their lines from it.

const INR = CURRENCIES.find((c) => c.code === 'INR')!;
const GST: TaxSettings = { regime: 'gst', rate: 18, sellerStateCode: '29', lutValid: true, pricesIncludeTax: false };
const rows = (p: PriceFigures) => priceLines(p).map((l) => [l.key, l.label, l.amount]);

describe('the one description of lines', () => {
  it("a GST quote in the seller's state: list price, offer reduction, coupon, fee, taxable value, taxes, total (decision 220 figures)", () => {
    const q = quote(INR, 0, { settings: GST, buyer: { country: 'IN', stateCode: '29' } });
    const tax = { regime: 'gst' as const, supplyType: q.supplyType, pricesIncludeTax: false, taxableValue: q.taxableValue, taxes: q.taxes };
    expect(rows({ ...q, supply: 'Custom website', couponCode: null, tax })).toEqual([
      ['list_price', 'Custom website', 8_491_500],
      ['offer_reduction', 'Offer price reduction', -850_000],
      ['platform_fee', 'Platform fee', 152_830],
      ['taxable_value', 'Taxable value', 7_794_330],
      ['tax', 'CGST @ 9 %', 701_490],
      ['tax', 'SGST @ 9 %', 701_490],
      ['total', 'Order total', 9_197_310],
    ]);
  });

  it('a coupon or a referral code is named by its kind and code; the lines that post add up to the total', () => {
    const q = quote(INR, 25);
    const lines = priceLines({ ...q, supply: 'Custom website', couponCode: 'FIRSTWEB25', codeKind: 'promo', tax: null });
    expect(lines.find((l) => l.key === 'discount')).toMatchObject({
      label: 'Coupon discount (code FIRSTWEB25, 25%)',
      amount: -q.discount,
      posts: 'discount',
    });
    expect(lines.filter((l) => l.posts).reduce((s, l) => s + l.amount, 0)).toBe(q.total);
    expect(lines.some((l) => l.key === 'taxable_value')).toBe(false);
    expect(discountLabel('R-ABC', 5, 'referral')).toBe('Referral discount (code R-ABC, 5%)');
    expect(orderPriceFigures({ ...q, couponCode: 'R-ABC', referrerUserId: 'u1', tax: null }, 'x').codeKind).toBe('referral');
    expect(orderPriceFigures({ ...q, couponCode: null, referrerUserId: null, tax: null }, 'x').codeKind).toBeNull();
  });

  it('prices that include tax take it out in one line; an export under the LUT says it is zero-rated', () => {
    const inside = quote(INR, 0, { settings: { ...GST, pricesIncludeTax: true }, buyer: { country: 'IN', stateCode: '27' } });
    const lines = priceLines({
      ...inside,
      supply: 'S',
      couponCode: null,
      tax: { regime: 'gst', supplyType: inside.supplyType, pricesIncludeTax: true, taxableValue: inside.taxableValue, taxes: inside.taxes },
    });
    const igst = inside.taxes[0]!.amount;
    expect(lines.map((l) => l.key)).toEqual([
      'list_price',
      'offer_reduction',
      'platform_fee',
      'tax_included',
      'taxable_value',
      'tax',
      'total',
    ]);
    expect(lines.find((l) => l.key === 'tax_included')).toMatchObject({ label: 'Tax included in the prices above', amount: -igst });
    expect(lines.filter((l) => l.posts).reduce((s, l) => s + l.amount, 0)).toBe(inside.total);
    const exp = quote(
      CURRENCIES.find((c) => c.code === 'USD')!,
      0,
      { settings: GST, buyer: { country: 'US' } },
    );
    const expLines = priceLines({
      ...exp,
      supply: 'S',
      couponCode: null,
      tax: { regime: 'gst', supplyType: exp.supplyType, pricesIncludeTax: false, taxableValue: exp.taxableValue, taxes: exp.taxes },
    });
    expect(expLines.find((l) => l.key === 'zero_rated')).toMatchObject({ amount: 0, posts: null });
  });

  it('a total the lines do not reach shows the difference as a rounding line', () => {
    const lines = priceLines({
      supply: 'S',
      listPrice: 100,
      price: 100,
      discount: 0,
      discountPercent: 0,
      couponCode: null,
      fee: 2,
      total: 103,
      tax: null,
    });
    expect(lines.slice(-2).map((l) => [l.key, l.amount])).toEqual([
      ['rounding', 1],
      ['total', 103],
    ]);
  });
});
