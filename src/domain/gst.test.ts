import { describe, expect, it } from 'vitest';
import {
  INDIAN_STATES,
  addTax,
  amountInWords,
  gstinCheckCharacter,
  gstinProblem,
  mulDivHalfUp,
  placeOfSupply,
  rupeesInWords,
  takeOutTax,
  taxRates,
  type TaxSettings,
} from './gst.ts';
import { quote, withoutDiscount } from './pricing.ts';
import type { Currency } from './money.ts';

// The worked figures below are the ones in docs/decisions/220-gst-tax-rules.md: plan ₹76,415 (899 × 85),
// platform fee 2 %, GST 18 %, supplier in Karnataka (29).
const INR: Currency = { code: 'INR', symbol: '₹', factor: 85, minorDigits: 2 };
const USD: Currency = { code: 'USD', symbol: '$', factor: 1, minorDigits: 2 };
const JPY: Currency = { code: 'JPY', symbol: '¥', factor: 150, minorDigits: 0 };
const GST: TaxSettings = { regime: 'gst', rate: 18, sellerStateCode: '29', lutValid: true, pricesIncludeTax: false };
const KA_BUSINESS = { country: 'IN', stateCode: '29', gstin: '29AAGCB7383J1Z4' };
const MH_CONSUMER = { country: 'IN', stateCode: '27' };
const US_BUYER = { country: 'US' };

describe('GSTIN', () => {
  it('accepts a GSTIN whose check character is right', () => {
    expect(gstinCheckCharacter('27AAPFU0939F1Z')).toBe('V');
    expect(gstinProblem('27AAPFU0939F1ZV')).toBeNull();
    expect(gstinProblem(KA_BUSINESS.gstin)).toBeNull();
  });
  it('refuses a wrong check character, lowercase, 14 or 16 characters, an unknown state', () => {
    expect(gstinProblem('27AAPFU0939F1ZW')).toMatch(/check character/);
    expect(gstinProblem('27aapfu0939f1zv')).toMatch(/capital/);
    expect(gstinProblem('27AAPFU0939F1Z')).toMatch(/15 characters/);
    expect(gstinProblem('27AAPFU0939F1ZVX')).toMatch(/15 characters/);
    expect(gstinProblem('99AAPFU0939F1ZV')).toMatch(/state code/);
    expect(gstinProblem('27AAPF10939F1ZV')).toMatch(/format/);
  });
  it('knows the 36 states and union territories', () => {
    expect(INDIAN_STATES).toHaveLength(36);
    expect(new Set(INDIAN_STATES.map((s) => s.code)).size).toBe(36);
  });
});

describe('place of supply', () => {
  it('Karnataka buyer of a Karnataka supplier: intra-State', () => {
    expect(placeOfSupply(GST, KA_BUSINESS, 'INR')).toEqual({ supplyType: 'intra', placeOfSupply: { code: '29', name: 'Karnataka' } });
  });
  it('a registered buyer: the GSTIN state decides, not the address', () => {
    expect(placeOfSupply(GST, { country: 'IN', stateCode: '29', gstin: '27AAPFU0939F1ZV' }, 'INR').placeOfSupply.code).toBe('27');
  });
  it('Maharashtra consumer: inter-State', () => {
    expect(placeOfSupply(GST, MH_CONSUMER, 'INR')).toEqual({ supplyType: 'inter', placeOfSupply: { code: '27', name: 'Maharashtra' } });
  });
  it("an Indian buyer with no state on record: the supplier's state", () => {
    expect(placeOfSupply(GST, { country: 'IN' }, 'INR').supplyType).toBe('intra');
  });
  it('a buyer abroad paying in a foreign currency: export; paying in rupees: inter-State', () => {
    expect(placeOfSupply(GST, US_BUYER, 'USD')).toEqual({ supplyType: 'export', placeOfSupply: { code: '96', name: 'Other Countries' } });
    expect(placeOfSupply(GST, US_BUYER, 'INR').supplyType).toBe('inter');
  });
  it('not registered: no supply type', () => {
    expect(placeOfSupply({ ...GST, regime: 'none' }, MH_CONSUMER, 'INR').supplyType).toBe('none');
  });
});

describe('rounding', () => {
  it('half up to the minor unit, in integers', () => {
    expect(mulDivHalfUp(50, 900, 10_000)).toBe(5); // 4.5 paise → 5
    expect(mulDivHalfUp(49, 900, 10_000)).toBe(4); // 4.41 → 4
    expect(mulDivHalfUp(150, 900, 10_000)).toBe(14); // 13.5 → 14
    expect(mulDivHalfUp(1_111_105, 1, 100)).toBe(11_111); // 11111.05 stays exact
  });
  it('one paisa either side of the worked taxable value', () => {
    const at = (v: number) => addTax(v, taxRates(GST, 'intra')).taxes.map((t) => t.amount);
    expect(at(7_794_329)).toEqual([701_490, 701_490]); // 701 489.61
    expect(at(7_794_330)).toEqual([701_490, 701_490]); // 701 489.70
    expect(at(7_794_331)).toEqual([701_490, 701_490]); // 701 489.79
    expect(at(7_794_322)).toEqual([701_489, 701_489]); // 701 488.98 → 701 489
    expect(at(7_794_317)).toEqual([701_489, 701_489]); // 701 488.53
    expect(at(7_794_316)).toEqual([701_488, 701_488]); // 701 488.44
  });
  it('CGST equals SGST exactly, for every taxable value', () => {
    for (let v = 0; v < 5000; v += 7) {
      const [c, s] = addTax(v, taxRates(GST, 'intra')).taxes;
      expect(c!.amount).toBe(s!.amount);
      const [ci, si] = takeOutTax(v, taxRates(GST, 'intra')).taxes;
      expect(ci!.amount).toBe(si!.amount);
    }
  });
});

describe('quotes (prices without tax)', () => {
  it('Karnataka business: CGST 9 % + SGST 9 %', () => {
    const q = quote(INR, 0, { settings: GST, buyer: KA_BUSINESS });
    expect(q).toMatchObject({
      price: 7_641_500,
      fee: 152_830,
      taxableValue: 7_794_330,
      total: 9_197_310,
      advance: 1_839_400,
      remaining: 7_357_910,
      supplyType: 'intra',
    });
    expect(q.taxes).toEqual([
      { kind: 'CGST', rate: 9, amount: 701_490 },
      { kind: 'SGST', rate: 9, amount: 701_490 },
    ]);
  });
  it('Maharashtra consumer: IGST 18 %', () => {
    const q = quote(INR, 0, { settings: GST, buyer: MH_CONSUMER });
    expect(q.taxes).toEqual([{ kind: 'IGST', rate: 18, amount: 1_402_979 }]);
    expect(q).toMatchObject({ taxableValue: 7_794_330, total: 9_197_309, advance: 1_839_400, remaining: 7_357_909 });
  });
  it('US buyer in USD under a LUT: zero-rated export', () => {
    const q = quote(USD, 0, { settings: GST, buyer: US_BUYER });
    expect(q).toMatchObject({ taxableValue: 91_698, taxes: [], total: 91_698, supplyType: 'export', advance: 18_300 });
  });
  it('US buyer in USD without a LUT: IGST 18 %', () => {
    const q = quote(USD, 0, { settings: { ...GST, lutValid: false }, buyer: US_BUYER });
    expect(q.taxes).toEqual([{ kind: 'IGST', rate: 18, amount: 16_506 }]); // 16 505.64 cents
    expect(q.total).toBe(108_204);
  });
  it('a buyer in Japan in JPY without a LUT: rounded to the yen', () => {
    const q = quote(JPY, 0, { settings: { ...GST, lutValid: false }, buyer: { country: 'JP' } });
    expect(q).toMatchObject({ price: 134_850, fee: 2_697, taxableValue: 137_547, total: 162_305 });
    expect(q.taxes).toEqual([{ kind: 'IGST', rate: 18, amount: 24_758 }]); // ¥24 758.46
  });
  it('a 10 % promo code: tax on the price after discount plus fee', () => {
    const q = quote(INR, 10, { settings: GST, buyer: KA_BUSINESS });
    expect(q).toMatchObject({ discount: 764_150, afterDiscount: 6_877_350, fee: 137_547, taxableValue: 7_014_897, total: 8_277_579 });
    expect(q.taxes.map((t) => t.amount)).toEqual([631_341, 631_341]);
  });
  it('a 5 % referral code, inter-State', () => {
    const q = quote(INR, 5, { settings: GST, buyer: MH_CONSUMER });
    expect(q).toMatchObject({ discount: 382_075, fee: 145_189, taxableValue: 7_404_614, total: 8_737_445 });
    expect(q.taxes).toEqual([{ kind: 'IGST', rate: 18, amount: 1_332_831 }]);
  });
  it('not registered: no tax, the total as before', () => {
    const q = quote(INR, 0, { settings: { ...GST, regime: 'none' }, buyer: KA_BUSINESS });
    expect(q).toMatchObject({ taxableValue: 7_794_330, taxes: [], total: 7_794_330, supplyType: 'none', advance: 1_558_800 });
    expect(quote(INR)).toMatchObject({ total: 7_794_330, taxes: [], supplyType: 'none' });
  });
});

describe('quotes (prices with tax, PRICES_INCLUDE_TAX=true)', () => {
  const inclusive = { ...GST, pricesIncludeTax: true };
  it('intra: the tax is taken out of the price, the lines stay equal, the total is the price', () => {
    const q = quote(INR, 0, { settings: inclusive, buyer: KA_BUSINESS });
    expect(q.total).toBe(7_794_330);
    expect(q.taxes.map((t) => t.amount)).toEqual([594_483, 594_483]); // 9 % of 66 053.64
    expect(q.taxableValue).toBe(6_605_364);
  });
  it('inter: IGST taken out', () => {
    const q = quote(INR, 0, { settings: inclusive, buyer: MH_CONSUMER });
    expect(q.taxes).toEqual([{ kind: 'IGST', rate: 18, amount: 1_188_966 }]);
    expect(q.taxableValue + q.taxes[0]!.amount).toBe(7_794_330);
  });
  it("the advance's share of tax (receipt voucher): taken out of the 20 %", () => {
    const a = takeOutTax(1_839_400, taxRates(GST, 'intra'));
    expect(a).toEqual({
      taxableValue: 1_558_814,
      taxes: [
        { kind: 'CGST', rate: 9, amount: 140_293 },
        { kind: 'SGST', rate: 9, amount: 140_293 },
      ],
      total: 1_839_400,
    });
  });
});

describe('a code taken back after the advance', () => {
  it('recomputes fee, tax and remaining on the full price', () => {
    const full = withoutDiscount(7_641_500, 1_655_500, (v) => addTax(v, taxRates(GST, 'intra')));
    expect(full).toMatchObject({ fee: 152_830, taxableValue: 7_794_330, total: 9_197_310, remaining: 9_197_310 - 1_655_500 });
  });
});

describe('amount in words (Indian numbering)', () => {
  it('lakh, thousand, paise', () => {
    expect(rupeesInWords(7_794_330)).toBe('Rupees Seventy-Seven Thousand Nine Hundred Forty-Three and Thirty Paise Only');
    expect(rupeesInWords(9_197_310)).toBe('Rupees Ninety-One Thousand Nine Hundred Seventy-Three and Ten Paise Only');
    expect(rupeesInWords(123_456_789_00)).toBe('Rupees Twelve Crore Thirty-Four Lakh Fifty-Six Thousand Seven Hundred Eighty-Nine Only');
    expect(rupeesInWords(1)).toBe('Rupees Zero and One Paisa Only');
  });
});

describe("amount in words names each currency's minor unit", () => {
  it('INR: rupees and paise, Indian grouping', () => {
    expect(amountInWords(7_339_850, 'INR', 2)).toBe('Rupees Seventy-Three Thousand Three Hundred Ninety-Eight and Fifty Paise Only');
    expect(amountInWords(10_000_000, 'INR', 2)).toBe('Rupees One Lakh Only');
  });
  it('USD: dollars and cents, never hundredths', () => {
    expect(amountInWords(73_398, 'USD', 2)).toBe('Seven Hundred Thirty-Three Dollars and Ninety-Eight Cents Only');
    expect(amountInWords(100, 'USD', 2)).toBe('One Dollar Only');
    expect(amountInWords(1, 'USD', 2)).toBe('Zero Dollars and One Cent Only');
    expect(amountInWords(123_456_700, 'USD', 2)).toBe('One Million Two Hundred Thirty-Four Thousand Five Hundred Sixty-Seven Dollars Only');
  });
  it('GBP: pounds and pence', () => {
    expect(amountInWords(58_705, 'GBP', 2)).toBe('Five Hundred Eighty-Seven Pounds and Five Pence Only');
    expect(amountInWords(101, 'GBP', 2)).toBe('One Pound and One Penny Only');
  });
  it('AED: dirhams and fils', () => {
    expect(amountInWords(269_293, 'AED', 2)).toBe('Two Thousand Six Hundred Ninety-Two Dirhams and Ninety-Three Fils Only');
  });
  it('JPY: yen, no minor unit', () => {
    expect(amountInWords(91_698, 'JPY', 0)).toBe('Ninety-One Thousand Six Hundred Ninety-Eight Yen Only');
    expect(amountInWords(1, 'JPY', 0)).toBe('One Yen Only');
  });
  it('three-digit minor units and a currency without names', () => {
    expect(amountInWords(12_345, 'KWD', 3)).toBe('Twelve Dinars and Three Hundred Forty-Five Fils Only');
    expect(amountInWords(1_205, 'XYZ', 2)).toBe('XYZ Twelve and 5/100 Only');
    expect(amountInWords(73_398, 'USD', 2)).not.toMatch(/Hundredths/);
  });
});
