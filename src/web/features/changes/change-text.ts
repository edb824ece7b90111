import type { OrderChange } from '../../../contract/changes.ts';
import { formatMoneyWhole as wholeMoney } from '../../../domain/money.ts';
import { siteConfig } from '../../lib/site-config.ts';

export { wholeMoney };

type Money = { symbol: string; minorDigits: number; plusGst: boolean };

/**
 * "+ GST" follows a quote when GST will be added to it at the checkout: the agency charges GST
 * (TAX_REGIME=gst, so the site's tax note is set) and the order is in rupees (buyers in India).
 * Otherwise the amount is what is paid, and saying "+ GST" would be wrong.
 */
export const plusGstFor = (currency: string) => currency === 'INR' && siteConfig().taxNote !== '';
export const gstSuffix = (money: Pick<Money, 'plusGst'>) => (money.plusGst ? ' + GST' : '');

/** "Add a blog — ₹8,000 + GST · delivery moves by 5 days" (docs/decisions/250-change-requests.md). */
export function changeLine(c: Pick<OrderChange, 'title' | 'amount' | 'extraDays' | 'state'>, money: Money): string {
  const price =
    c.state === 'included'
      ? 'included at no charge'
      : c.amount === null
        ? 'waiting for a quote'
        : `${wholeMoney(c.amount, money)}${gstSuffix(money)}`;
  const days = c.extraDays > 0 ? ` · delivery moves by ${c.extraDays} day${c.extraDays === 1 ? '' : 's'}` : '';
  return `${c.title} — ${price}${days}`;
}

export const STATE_LABEL: Record<OrderChange['state'], string> = {
  requested: 'Waiting for our quote',
  quoted: 'Waiting for your decision',
  accepted: 'Accepted and paid',
  declined: 'Declined',
  withdrawn: 'Withdrawn',
  included: 'Included',
};

/** The days accepted and included changes added to the delivery (docs/decisions/251-change-due-date.md). */
export const movedDays = (changes: readonly Pick<OrderChange, 'state' | 'extraDays'>[]) =>
  changes.filter((c) => c.state === 'accepted' || c.state === 'included').reduce((s, c) => s + c.extraDays, 0);

/** Why the due date moved, said the same on both sides. */
export const movedText = (days: number) =>
  `Changes moved the delivery by ${days} day${days === 1 ? '' : 's'}; the date shown includes them.`;
