// Indian GST for a supplier of services (docs/decisions/220-gst-tax-rules.md): the GSTIN check, the
// states and union territories with their GST codes, the place of supply, and the tax lines of a
// quote. Pure functions: the server, the browser and the unit tests share them. Money is integer
// minor units of the order's currency; rates are percentages with at most two decimals.

export interface IndianState {
  code: string;
  name: string;
}

/** The 28 states and 8 union territories with their GST state codes (GSTIN digits 1–2). */
export const INDIAN_STATES: readonly IndianState[] = [
  { code: '01', name: 'Jammu and Kashmir' },
  { code: '02', name: 'Himachal Pradesh' },
  { code: '03', name: 'Punjab' },
  { code: '04', name: 'Chandigarh' },
  { code: '05', name: 'Uttarakhand' },
  { code: '06', name: 'Haryana' },
  { code: '07', name: 'Delhi' },
  { code: '08', name: 'Rajasthan' },
  { code: '09', name: 'Uttar Pradesh' },
  { code: '10', name: 'Bihar' },
  { code: '11', name: 'Sikkim' },
  { code: '12', name: 'Arunachal Pradesh' },
  { code: '13', name: 'Nagaland' },
  { code: '14', name: 'Manipur' },
  { code: '15', name: 'Mizoram' },
  { code: '16', name: 'Tripura' },
  { code: '17', name: 'Meghalaya' },
  { code: '18', name: 'Assam' },
  { code: '19', name: 'West Bengal' },
  { code: '20', name: 'Jharkhand' },
  { code: '21', name: 'Odisha' },
  { code: '22', name: 'Chhattisgarh' },
  { code: '23', name: 'Madhya Pradesh' },
  { code: '24', name: 'Gujarat' },
  { code: '26', name: 'Dadra and Nagar Haveli and Daman and Diu' },
  { code: '27', name: 'Maharashtra' },
  { code: '29', name: 'Karnataka' },
  { code: '30', name: 'Goa' },
  { code: '31', name: 'Lakshadweep' },
  { code: '32', name: 'Kerala' },
  { code: '33', name: 'Tamil Nadu' },
  { code: '34', name: 'Puducherry' },
  { code: '35', name: 'Andaman and Nicobar Islands' },
  { code: '36', name: 'Telangana' },
  { code: '37', name: 'Andhra Pradesh' },
  { code: '38', name: 'Ladakh' },
];

/** GSTR-1's place-of-supply code for a recipient outside India. */
export const OTHER_COUNTRIES: IndianState = { code: '96', name: 'Other Countries' };

export const stateByCode = (code: string | null | undefined) => INDIAN_STATES.find((s) => s.code === code);

const BASE36 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** The 15th character of a GSTIN from its first 14 (Luhn mod 36, weights 1, 2, 1, … from the left). */
export function gstinCheckCharacter(first14: string): string {
  let sum = 0;
  for (let i = 0; i < 14; i++) {
    const v = BASE36.indexOf(first14[i] ?? '');
    if (v < 0) return '';
    const p = v * (i % 2 === 0 ? 1 : 2);
    sum += Math.floor(p / 36) + (p % 36);
  }
  return BASE36[(36 - (sum % 36)) % 36]!;
}

/** Why a GSTIN is not valid, or null when it is: exact case, 15 characters, format, state code, check character. */
export function gstinProblem(gstin: string): string | null {
  if (gstin.length !== 15) return 'must be exactly 15 characters';
  if (gstin !== gstin.toUpperCase()) return 'must be in capital letters';
  // 2 digits of state, the 10-character PAN (5 letters, 4 digits, 1 letter), the entity number, Z, the check character.
  if (!/^\d{2}[A-Z]{5}\d{4}[A-Z][1-9A-Z]Z[0-9A-Z]$/.test(gstin)) return 'is not in the GSTIN format (e.g. 29ABCDE1234F1ZW)';
  if (!stateByCode(gstin.slice(0, 2))) return `starts with ${gstin.slice(0, 2)}, which is not a GST state code`;
  if (gstinCheckCharacter(gstin.slice(0, 14)) !== gstin[14])
    return 'has a wrong check character (last character): please copy it again from the GST certificate';
  return null;
}

export type SupplyType = 'intra' | 'inter' | 'export' | 'none';
export type TaxKind = 'CGST' | 'SGST' | 'IGST';
export interface TaxLine {
  kind: TaxKind;
  rate: number;
  amount: number;
}

export interface TaxSettings {
  regime: 'none' | 'gst';
  /** The whole rate in percent (18). */
  rate: number;
  sellerStateCode: string;
  /** A valid Letter of Undertaking at the moment of the quote: exports are then zero-rated. */
  lutValid: boolean;
  pricesIncludeTax: boolean;
}

export interface BuyerLocation {
  /** ISO 3166-1 alpha-2. */
  country: string;
  stateCode?: string | null;
  gstin?: string | null;
}

export interface PlaceOfSupply {
  supplyType: SupplyType;
  placeOfSupply: IndianState;
}

/**
 * The place of supply of a service and the kind of supply (IGST Act s.12(2) within India, s.13(2)
 * with a recipient abroad, s.2(6) for an export): a registered buyer's GSTIN state, else the state of
 * the address given, else (no address on record) the supplier's own state. A buyer abroad paying in
 * a foreign currency is an export; paying in rupees it is not (s.2(6)(iv)) and is taxed as inter-State.
 */
export function placeOfSupply(tax: Pick<TaxSettings, 'regime' | 'sellerStateCode'>, buyer: BuyerLocation, currency: string): PlaceOfSupply {
  const abroad = buyer.country.toUpperCase() !== 'IN';
  const pos = abroad
    ? OTHER_COUNTRIES
    : (stateByCode(buyer.gstin?.slice(0, 2)) ?? stateByCode(buyer.stateCode) ?? stateByCode(tax.sellerStateCode) ?? OTHER_COUNTRIES);
  if (tax.regime === 'none') return { supplyType: 'none', placeOfSupply: pos };
  if (abroad) return { supplyType: currency.toUpperCase() === 'INR' ? 'inter' : 'export', placeOfSupply: pos };
  return { supplyType: pos.code === tax.sellerStateCode ? 'intra' : 'inter', placeOfSupply: pos };
}

/** Basis points of a percentage (9 → 900, 2.5 → 250): the arithmetic below stays in integers. */
const bp = (percent: number) => Math.round(percent * 100);

/** a × b / c rounded half up, for non-negative integers (no float noise at .5 of a paisa). */
export function mulDivHalfUp(a: number, b: number, c: number): number {
  if (a < 0) return -mulDivHalfUp(-a, b, c);
  const n = BigInt(a) * BigInt(b);
  const d = BigInt(c);
  return Number((2n * n + d) / (2n * d));
}

/** The lines of tax for a supply type: CGST + SGST at half the rate each, IGST at the rate, none for a zero-rated export or unregistered supplier. */
export function taxRates(tax: TaxSettings, supplyType: SupplyType): { kind: TaxKind; rate: number }[] {
  if (supplyType === 'none') return [];
  if (supplyType === 'intra')
    return [
      { kind: 'CGST', rate: tax.rate / 2 },
      { kind: 'SGST', rate: tax.rate / 2 },
    ];
  if (supplyType === 'export' && tax.lutValid) return [];
  return [{ kind: 'IGST', rate: tax.rate }];
}

export interface TaxedAmount {
  taxableValue: number;
  taxes: TaxLine[];
  total: number;
}

/**
 * Tax on a taxable value (prices without tax): each line is rounded half up to the minor unit on
 * its own, so CGST and SGST — same rate, same base — are always exactly equal.
 */
export function addTax(taxableValue: number, rates: { kind: TaxKind; rate: number }[]): TaxedAmount {
  const taxes = rates.map((r) => ({ kind: r.kind, rate: r.rate, amount: mulDivHalfUp(taxableValue, bp(r.rate), 10_000) }));
  return { taxableValue, taxes, total: taxableValue + taxes.reduce((s, t) => s + t.amount, 0) };
}

/**
 * Tax taken out of an amount that includes it (prices with tax, and the advance's share): the
 * taxable value is the gross ÷ (1 + rate) rounded half up, each tax line is computed on it as in
 * addTax, and the taxable value is then the gross less the tax lines — so the document adds up to
 * exactly what was paid, the lines stay equal, and the taxable value may move by the rounding paisa.
 */
export function takeOutTax(gross: number, rates: { kind: TaxKind; rate: number }[]): TaxedAmount {
  const totalBp = rates.reduce((s, r) => s + bp(r.rate), 0);
  const base = mulDivHalfUp(gross, 10_000, 10_000 + totalBp);
  const taxes = rates.map((r) => ({ kind: r.kind, rate: r.rate, amount: mulDivHalfUp(base, bp(r.rate), 10_000) }));
  return { taxableValue: gross - taxes.reduce((s, t) => s + t.amount, 0), taxes, total: gross };
}

/** The supply's tax: added to the price, or taken out of it when PRICES_INCLUDE_TAX is on. */
export function taxSupply(tax: TaxSettings, supplyType: SupplyType, price: number): TaxedAmount {
  const rates = taxRates(tax, supplyType);
  return tax.pricesIncludeTax ? takeOutTax(price, rates) : addTax(price, rates);
}

const ONES = [
  '',
  'One',
  'Two',
  'Three',
  'Four',
  'Five',
  'Six',
  'Seven',
  'Eight',
  'Nine',
  'Ten',
  'Eleven',
  'Twelve',
  'Thirteen',
  'Fourteen',
  'Fifteen',
  'Sixteen',
  'Seventeen',
  'Eighteen',
  'Nineteen',
];
const TENS = ['', '', 'Twenty', 'Thirty', 'Forty', 'Fifty', 'Sixty', 'Seventy', 'Eighty', 'Ninety'];

function belowHundred(n: number): string {
  if (n < 20) return ONES[n]!;
  const t = TENS[Math.floor(n / 10)]!;
  return n % 10 ? `${t}-${ONES[n % 10]}` : t;
}

function belowThousand(n: number): string {
  const h = Math.floor(n / 100);
  const rest = n % 100;
  return [h ? `${ONES[h]} Hundred` : '', rest ? belowHundred(rest) : ''].filter(Boolean).join(' ');
}

/** A whole number in words with Indian grouping: crore, lakh, thousand, hundred. */
export function indianNumberWords(n: number): string {
  if (n === 0) return 'Zero';
  const parts: string[] = [];
  const crore = Math.floor(n / 10_000_000);
  if (crore) parts.push(`${indianNumberWords(crore)} Crore`);
  const lakh = Math.floor((n % 10_000_000) / 100_000);
  if (lakh) parts.push(`${belowHundred(lakh)} Lakh`);
  const thousand = Math.floor((n % 100_000) / 1000);
  if (thousand) parts.push(`${belowHundred(thousand)} Thousand`);
  const rest = n % 1000;
  if (rest) parts.push(belowThousand(rest));
  return parts.join(' ');
}

/** "Rupees Seventy-Seven Thousand … and Thirty Paise Only" for an amount in paise. */
export function rupeesInWords(paise: number): string {
  const rupees = Math.floor(paise / 100);
  const p = paise % 100;
  return `Rupees ${indianNumberWords(rupees)}${p ? ` and ${belowHundred(p)} ${p === 1 ? 'Paisa' : 'Paise'}` : ''} Only`;
}

/** A whole number in words with international grouping: trillion, billion, million, thousand, hundred. */
export function numberWords(n: number): string {
  if (n === 0) return 'Zero';
  const parts: string[] = [];
  let rest = n;
  for (const [size, name] of [
    [1e12, 'Trillion'],
    [1e9, 'Billion'],
    [1e6, 'Million'],
    [1e3, 'Thousand'],
  ] as const) {
    const count = Math.floor(rest / size);
    if (count) parts.push(`${numberWords(count)} ${name}`);
    rest %= size;
  }
  if (rest) parts.push(belowThousand(rest));
  return parts.join(' ');
}

/**
 * Each currency's unit and minor unit, singular and plural (docs/decisions/333-amount-words-and-price-lines.md);
 * null: the currency has no minor unit in use (yen).
 */
export const CURRENCY_WORDS: Readonly<Record<string, { unit: [string, string]; minor: [string, string] | null }>> = {
  INR: { unit: ['Rupee', 'Rupees'], minor: ['Paisa', 'Paise'] },
  USD: { unit: ['Dollar', 'Dollars'], minor: ['Cent', 'Cents'] },
  EUR: { unit: ['Euro', 'Euros'], minor: ['Cent', 'Cents'] },
  GBP: { unit: ['Pound', 'Pounds'], minor: ['Penny', 'Pence'] },
  AED: { unit: ['Dirham', 'Dirhams'], minor: ['Fils', 'Fils'] },
  JPY: { unit: ['Yen', 'Yen'], minor: null },
  KWD: { unit: ['Dinar', 'Dinars'], minor: ['Fils', 'Fils'] },
  BHD: { unit: ['Dinar', 'Dinars'], minor: ['Fils', 'Fils'] },
  OMR: { unit: ['Rial', 'Rials'], minor: ['Baisa', 'Baisa'] },
};

/**
 * An amount in words for a document: rupees as Indian documents write them ("Rupees … and Thirty Paise
 * Only", lakh and crore); another currency with its own unit and minor unit ("Seven Hundred
 * Thirty-Three Dollars and Ninety-Eight Cents Only", million and billion). A currency we have no
 * names for leads with its code and gives the fraction as a fraction ("KRW … and 5/100 Only").
 */
export function amountInWords(minor: number, currency: string, minorDigits: number): string {
  if (currency === 'INR') return rupeesInWords(minor);
  const unit = 10 ** minorDigits;
  const major = Math.floor(minor / unit);
  const fraction = minor % unit;
  const names = CURRENCY_WORDS[currency];
  if (!names) return `${currency} ${numberWords(major)}${fraction ? ` and ${fraction}/${unit}` : ''} Only`;
  const whole = `${numberWords(major)} ${names.unit[major === 1 ? 0 : 1]}`;
  if (!fraction) return `${whole} Only`;
  const part = names.minor ? `${numberWords(fraction)} ${names.minor[fraction === 1 ? 0 : 1]}` : `${fraction}/${unit}`;
  return `${whole} and ${part} Only`;
}

/** The text the CGST rules ask an export under a LUT to carry (rule 46, first proviso to (n)). */
export const LUT_ENDORSEMENT = 'SUPPLY MEANT FOR EXPORT UNDER BOND OR LETTER OF UNDERTAKING WITHOUT PAYMENT OF INTEGRATED TAX';
