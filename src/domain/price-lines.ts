import type { SupplyType, TaxLine } from './gst.ts';

// The one description of an order's price, line by line (docs/decisions/333-amount-words-and-price-lines.md):
// the /pay quote, the web pay screen, the receipt voucher, the invoice and the order's ledger all
// take their lines and their words from here, so whatever the quote calls a line, the documents
// and the statement call it too.

export type PriceLineKey =
  | 'list_price'
  | 'offer_reduction'
  | 'discount'
  | 'platform_fee'
  | 'tax_included'
  | 'taxable_value'
  | 'tax'
  | 'zero_rated'
  | 'rounding'
  | 'total';

export interface PriceLine {
  key: PriceLineKey;
  label: string;
  /** Signed minor units: reductions negative. */
  amount: number;
  /** What the order's ledger posts the line as; null for a subtotal or a fact that moves nothing (taxable value, total). */
  posts: 'charge' | 'discount' | 'tax' | null;
  taxKind?: TaxLine['kind'];
}

export interface PriceFigures {
  /** What is sold: "Custom website" on a quote, "Custom website — order WS-…" once the order exists. */
  supply: string;
  listPrice: number;
  /** The price after the offer's reduction (the plan's price). */
  price: number;
  discountPercent: number;
  discount: number;
  couponCode: string | null;
  /** A referral code's discount is a referral discount, a coupon's a coupon discount. */
  codeKind?: 'promo' | 'referral' | null;
  fee: number;
  /** The order's total, tax included. */
  total: number;
  /** Null when the seller is not registered for GST (no tax lines, no taxable value). */
  tax: {
    regime: 'none' | 'gst';
    supplyType: SupplyType;
    pricesIncludeTax: boolean;
    taxableValue: number;
    taxes: readonly TaxLine[];
  } | null;
}

/** An order's row as it keeps its price (orders: the quote's figures, the tax frozen on it). */
export interface OrderPriceRow {
  listPrice: number;
  price: number;
  discountPercent: number;
  discount: number;
  couponCode: string | null;
  /** Set when the code was a referral code (its discount is a referral discount). */
  referrerUserId?: string | null;
  fee: number;
  total: number;
  tax: PriceFigures['tax'];
}

/** The figures of an order for priceLines. */
export function orderPriceFigures(o: OrderPriceRow, supply: string): PriceFigures {
  const { listPrice, price, discountPercent, discount, couponCode, fee, total, tax } = o;
  return {
    supply,
    listPrice,
    price,
    discountPercent,
    discount,
    couponCode,
    codeKind: couponCode ? (o.referrerUserId ? 'referral' : 'promo') : null,
    fee,
    total,
    tax,
  };
}

export const SUPPLY = 'Custom website';
export const orderSupply = (publicId: string) => `${SUPPLY} — order ${publicId}`;

export const PRICE_LABEL = {
  offerReduction: 'Offer price reduction',
  platformFee: 'Platform fee',
  taxIncluded: 'Tax included in the prices above',
  taxableValue: 'Taxable value',
  zeroRated: 'IGST: export of services, zero-rated',
  rounding: 'Rounding',
  total: 'Order total',
} as const;

export function discountLabel(couponCode: string | null, percent: number, codeKind?: 'promo' | 'referral' | null): string {
  const what = codeKind === 'referral' ? 'Referral discount' : codeKind === 'promo' ? 'Coupon discount' : 'Discount';
  return `${what}${couponCode ? ` (code ${couponCode}, ${percent}%)` : ` (${percent}%)`}`;
}

export const taxLabel = (t: Pick<TaxLine, 'kind' | 'rate'>) => `${t.kind} @ ${t.rate} %`;

/**
 * The lines of an order's price: list price, the offer's reduction, the code's discount, the
 * platform fee, (prices with tax: the tax taken out of them), the taxable value, the taxes, and
 * the total. The lines that post add up to the total; any rounding between them shows as its own line.
 */
export function priceLines(p: PriceFigures): PriceLine[] {
  const lines: PriceLine[] = [{ key: 'list_price', label: p.supply, amount: p.listPrice, posts: 'charge' }];
  if (p.listPrice !== p.price)
    lines.push({ key: 'offer_reduction', label: PRICE_LABEL.offerReduction, amount: -(p.listPrice - p.price), posts: 'discount' });
  if (p.discount > 0)
    lines.push({
      key: 'discount',
      label: discountLabel(p.couponCode, p.discountPercent, p.codeKind),
      amount: -p.discount,
      posts: 'discount',
    });
  lines.push({ key: 'platform_fee', label: PRICE_LABEL.platformFee, amount: p.fee, posts: 'charge' });
  const taxes = p.tax?.taxes ?? [];
  const taxTotal = taxes.reduce((s, t) => s + t.amount, 0);
  if (p.tax?.pricesIncludeTax && taxTotal !== 0)
    lines.push({ key: 'tax_included', label: PRICE_LABEL.taxIncluded, amount: -taxTotal, posts: 'charge' });
  if (p.tax?.regime === 'gst')
    lines.push({ key: 'taxable_value', label: PRICE_LABEL.taxableValue, amount: p.tax.taxableValue, posts: null });
  for (const t of taxes) lines.push({ key: 'tax', label: taxLabel(t), amount: t.amount, posts: 'tax', taxKind: t.kind });
  if (p.tax?.regime === 'gst' && p.tax.supplyType === 'export' && taxes.length === 0)
    lines.push({ key: 'zero_rated', label: PRICE_LABEL.zeroRated, amount: 0, posts: null });
  // The total is the quote the customer agreed to: rounding between the lines and it shows.
  const sum = lines.reduce((s, l) => s + (l.posts ? l.amount : 0), 0);
  if (sum !== p.total) lines.push({ key: 'rounding', label: PRICE_LABEL.rounding, amount: p.total - sum, posts: 'charge' });
  lines.push({ key: 'total', label: PRICE_LABEL.total, amount: p.total, posts: null });
  return lines;
}
