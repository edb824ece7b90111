import { formatMoney } from "../../../domain/money.ts";

/** ₹8,000 rather than ₹8,000.00 when the amount is whole. Its own module: the prerendered /pricing loads it without the rest of the changes' texts (the page-JS budget, decision 115). */
export function wholeMoney(minor: number, money: { symbol: string; minorDigits: number }): string {
  const s = formatMoney(minor, money);
  return s.endsWith(".00") ? s.slice(0, -3) : s;
}
