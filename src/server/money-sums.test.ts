import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// Every money figure a person sees comes from the order's account (docs/decisions/320-order-ledger.md):
// no screen or route adds amounts itself. This test finds sums of money anywhere in src/ outside the
// ledger module: SQL `sum(…)` over a money column, and `.reduce(…)` adding a money property.

const SRC = fileURLToPath(new URL('..', import.meta.url));
const MONEY = '(?:amount|total|price|fee|discount|value|taxable\\w*|tax\\w*|balance\\w*|paid|refunded)';

/** The sums of money in one file's text, as "line: code" strings. */
export function moneySums(text: string): string[] {
  const found: string[] = [];
  const lines = text.split('\n');
  lines.forEach((line, i) => {
    const code = line.replace(/\/\/.*$/, '');
    const sqlSum =
      new RegExp(`\\bsum\\((?:[^()]|\\([^()]*\\))*\\b${MONEY}\\b`, 'i').test(code) ||
      new RegExp(`\\bsum\\(\\s*\\w+\\.${MONEY}\\b`).test(code);
    const jsSum = new RegExp(
      `\\.reduce\\(\\s*\\(?\\s*(\\w+)\\s*,\\s*(\\w+)\\s*\\)?\\s*=>\\s*\\1\\s*\\+\\s*(?:\\(?\\s*)?(?:\\2\\.|\\w+\\(\\2\\))?\\w*${MONEY}\\b`,
      'i',
    ).test(code);
    if (sqlSum || jsSum) found.push(`${i + 1}: ${line.trim()}`);
  });
  return found;
}

/**
 * Where a sum of money is allowed, and why. The one place that may add up an order's money is the
 * ledger; the others compute a single document or quote, or a figure that is not an order's money.
 */
const ALLOWED: Record<string, string> = {
  'server/features/ledger/': 'the order account itself: the only place order money is added up',
  'domain/gst.ts': "one supply's tax lines: the tax of one amount, computed when it is quoted or documented",
  'domain/price-lines.ts':
    "one quote's lines (the ledger posts them): the tax taken out of prices that include it, and the " +
    'rounding to its total (docs/decisions/333-amount-words-and-price-lines.md)',
  'domain/gst-return.ts':
    'the GSTR-1 tables are computed from the documents, as the return asks (the ledger property test checks they agree)',
  'server/features/tax-return/monthly-return.ts':
    'the GSTR-1 document rows and the turnover against the registration threshold, from the documents',
  'server/features/invoices/issue-invoice.ts': "a document's own tax lines and what its snapshot prints, frozen when it is issued",
  'server/features/invoices/issue-charge-invoice.ts': "a one-off supply's quote: its taxable value plus its tax lines",
  'server/features/payments/create-payment-order.ts': "a quote's total: its taxable value plus its tax lines",
  'server/features/maintenance/plan-queries.ts': 'monthly recurring revenue: the prices of the active plans, money expected, not moved',
  'server/features/payouts/payouts-report.ts':
    "Razorpay's settlements: the provider's payout figures, matched to the order accounts by payment id (docs/decisions/323-razorpay-settlements.md)",
  'server/features/payments/cancel.ts':
    'what each payment can still give back (its amount less the refunds asked, pending ones too), to ' +
    'split a refund over payments and never return more than was paid',
  'server/features/payments/refund-flow.ts': 'the same per-payment limit when a refund is asked of the provider',
  'server/features/payments/refunds.ts': "a payment's refunds asked so far, pending ones too, against its amount",
  'server/features/admin/overview.ts': "cashback owed to referrers: the referral cashback's own ledger, not an order's money",
};

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return filesUnder(path);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [path] : [];
  });
}

describe('money is added up in the ledger only', () => {
  it('finds a planted sum in SQL and in a reduce, and none in code that adds no money', () => {
    expect(moneySums('const t = rows.reduce((s, r) => s + r.amount, 0);')).toHaveLength(1);
    expect(moneySums('const t = xs.reduce((acc, x) => acc + x.total, 0);')).toHaveLength(1);
    expect(moneySums('`select sum(amount)::float8 from installments`')).toHaveLength(1);
    expect(moneySums('`select coalesce(sum(i.amount), 0) from installments i`')).toHaveLength(1);
    expect(moneySums('const n = xs.reduce((s, x) => s + x.count, 0);')).toEqual([]);
    expect(moneySums('const days = xs.reduce((s, c) => s + c.extraDays, 0);')).toEqual([]);
    expect(moneySums('`select sum(c.admin_unread) from chats c`')).toEqual([]);
  });

  it('no file outside the ledger (and the listed exceptions) sums amounts of money', () => {
    const found: string[] = [];
    for (const path of filesUnder(SRC)) {
      const file = relative(SRC, path).split('\\').join('/');
      if (Object.keys(ALLOWED).some((a) => file === a || (a.endsWith('/') && file.startsWith(a)))) continue;
      for (const hit of moneySums(readFileSync(path, 'utf8'))) found.push(`${file}:${hit}`);
    }
    expect(found).toEqual([]);
  });
});
