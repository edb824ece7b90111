import { describe, expect, it } from 'vitest';
import { CURRENCIES } from './currencies.ts';
import type { TaxSettings } from './gst.ts';
import { maintenanceMinorIn, maintenancePriceText, maintenanceQuote, monthlyPriceLabel } from './maintenance-plan.ts';
import type { Currency } from './money.ts';
import { NO_TAX } from './pricing.ts';

// The worked figures of docs/decisions/322-maintenance-plan-gst.md: MAINTENANCE_MONTHLY_PRICE 49 (the
// default) × 85 (INR in the built-in currency table) = ₹4,165.00 a month; GST 18 %, seller in Karnataka (29).
const INR = CURRENCIES.find((c) => c.code === 'INR')!;
const USD: Currency = { code: 'USD', symbol: '$', factor: 1, minorDigits: 2 };
const GST: TaxSettings = { regime: 'gst', rate: 18, sellerStateCode: '29', lutValid: true, pricesIncludeTax: false };
const PRICE = maintenanceMinorIn(49, INR);

describe('the plan’s monthly quote', () => {
  it('is priced from the currency table: 49 × 85 = ₹4,165.00', () => {
    expect(INR.factor).toBe(85);
    expect(PRICE).toBe(416_500);
  });

  it('a buyer in Karnataka: taxable ₹4,165.00, CGST 9 % ₹374.85 + SGST 9 % ₹374.85, ₹4,914.70 a month', () => {
    expect(maintenanceQuote(PRICE, 'INR', { settings: GST, buyer: { country: 'IN', stateCode: '29' } })).toEqual({
      currency: 'INR',
      price: 416_500,
      taxableValue: 416_500,
      taxes: [
        { kind: 'CGST', rate: 9, amount: 37_485 },
        { kind: 'SGST', rate: 9, amount: 37_485 },
      ],
      supplyType: 'intra',
      placeOfSupply: { code: '29', name: 'Karnataka' },
      total: 491_470,
      taxAdded: true,
    });
  });

  it('a buyer in Maharashtra: IGST 18 % ₹749.70, the same ₹4,914.70', () => {
    const q = maintenanceQuote(PRICE, 'INR', { settings: GST, buyer: { country: 'IN', stateCode: '27' } });
    expect(q).toMatchObject({
      supplyType: 'inter',
      placeOfSupply: { code: '27', name: 'Maharashtra' },
      taxableValue: 416_500,
      taxes: [{ kind: 'IGST', rate: 18, amount: 74_970 }],
      total: 491_470,
    });
  });

  it('a registered buyer is placed by the GSTIN’s state, whatever state is chosen', () => {
    const q = maintenanceQuote(PRICE, 'INR', { settings: GST, buyer: { country: 'IN', stateCode: '27', gstin: '29AAGCB7383J1Z4' } });
    expect(q.supplyType).toBe('intra');
  });

  it('an export paid in dollars under a valid LUT has no tax; without the LUT it pays IGST', () => {
    const usd = maintenanceMinorIn(49, USD);
    expect(maintenanceQuote(usd, 'USD', { settings: GST, buyer: { country: 'US' } })).toMatchObject({
      supplyType: 'export',
      taxes: [],
      total: 4900,
      taxAdded: false,
    });
    expect(maintenanceQuote(usd, 'USD', { settings: { ...GST, lutValid: false }, buyer: { country: 'US' } })).toMatchObject({
      taxes: [{ kind: 'IGST', rate: 18, amount: 882 }],
      total: 5782,
      taxAdded: true,
    });
  });

  it('PRICES_INCLUDE_TAX takes the tax out of ₹4,165.00: taxable ₹3,529.66 + CGST ₹317.67 + SGST ₹317.67', () => {
    const q = maintenanceQuote(PRICE, 'INR', { settings: { ...GST, pricesIncludeTax: true }, buyer: { country: 'IN', stateCode: '29' } });
    expect(q).toMatchObject({
      taxableValue: 352_966,
      taxes: [
        { kind: 'CGST', amount: 31_767 },
        { kind: 'SGST', amount: 31_767 },
      ],
      total: 416_500,
      taxAdded: false,
    });
  });

  it('not registered: the price, no tax', () => {
    expect(maintenanceQuote(PRICE, 'INR', NO_TAX)).toMatchObject({ supplyType: 'none', taxes: [], total: PRICE, taxAdded: false });
  });
});

describe('how the price is written', () => {
  it('with GST added, with GST inside the price, and without GST', () => {
    expect(monthlyPriceLabel({ priceLabel: '₹4,165.00', totalLabel: '₹4,914.70', plusGst: true, gstIncluded: false })).toBe(
      '₹4,165.00 + GST = ₹4,914.70 a month',
    );
    expect(monthlyPriceLabel({ priceLabel: '₹4,165.00', totalLabel: '₹4,165.00', plusGst: false, gstIncluded: true })).toBe(
      '₹4,165.00 a month incl. GST',
    );
    expect(monthlyPriceLabel({ priceLabel: '$49.00', totalLabel: '$49.00', plusGst: false, gstIncluded: false })).toBe('$49.00 a month');
  });

  it('the public pages drop "+ GST" when prices include it', () => {
    const table = [USD, INR];
    expect(maintenancePriceText(49, table, true)).toBe('$49.00 a month (₹4,165.00 + GST in India)');
    expect(maintenancePriceText(49, table, true, true)).toBe('$49.00 a month (₹4,165.00 incl. GST in India)');
    expect(maintenancePriceText(49, table, false)).toBe('$49.00 a month (₹4,165.00 in India)');
  });
});
