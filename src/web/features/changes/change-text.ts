import type { OrderChange } from "../../../contract/changes.ts";
import { formatMoney } from "../../../domain/money.ts";

type Money = { symbol: string; minorDigits: number };

/** "Add a blog — ₹8,000 + GST · delivery moves by 5 days" (docs/decisions/250-change-requests.md). */
export function changeLine(
  c: Pick<OrderChange, "title" | "amount" | "extraDays" | "state">,
  money: Money,
): string {
  const price =
    c.state === "included"
      ? "included at no charge"
      : c.amount === null
        ? "waiting for a quote"
        : `${wholeMoney(c.amount, money)} + GST`;
  const days =
    c.extraDays > 0
      ? ` · delivery moves by ${c.extraDays} day${c.extraDays === 1 ? "" : "s"}`
      : "";
  return `${c.title} — ${price}${days}`;
}

/** ₹8,000 rather than ₹8,000.00 when the amount is whole. */
export function wholeMoney(minor: number, money: Money): string {
  const s = formatMoney(minor, money);
  return s.endsWith(".00") ? s.slice(0, -3) : s;
}

export const STATE_LABEL: Record<OrderChange["state"], string> = {
  requested: "Waiting for our quote",
  quoted: "Waiting for your decision",
  accepted: "Accepted and paid",
  declined: "Declined",
  withdrawn: "Withdrawn",
  included: "Included",
};
