import { and, gte, inArray, lt } from 'drizzle-orm';
import type { AppDeps } from '../../deps.ts';
import { invoices } from '../../db/schema/invoices.ts';
import { financialYear } from '../../../domain/invoice-number.ts';
import { moneyContext } from '../../lib/money-context.ts';
import { currencyOf, inrRate, inrValueOf, lutValidAt } from '../../lib/tax-context.ts';

/** Share of GST_REGISTRATION_THRESHOLD from which the overview warns (docs/decisions/220-gst-tax-rules.md). */
export const THRESHOLD_WARN_PERCENT = 80;

/** The first moment of the financial year `at` is in (INVOICE_FY_START_MONTH, INVOICE_TIME_ZONE), found by stepping back by days. */
function startOfFinancialYear(deps: AppDeps, at: Date): Date {
  const opts = { startMonth: deps.config.INVOICE_FY_START_MONTH, timeZone: deps.config.INVOICE_TIME_ZONE };
  const fy = financialYear(at, opts);
  let t = at.getTime();
  while (financialYear(new Date(t - 86_400_000), opts) === fy) t -= 86_400_000;
  while (financialYear(new Date(t - 3_600_000), opts) === fy) t -= 3_600_000;
  return new Date(t);
}

/**
 * The tax state the overview shows the owner: while not registered, the financial year's turnover
 * (documents received less refunded, in INR, test payments left out) against the registration
 * threshold, warning from 80 %; while registered, whether exports lack a valid LUT; and how many
 * TEST documents were left out (docs/decisions/334-refund-footer-and-env-example.md).
 */
export async function taxOverview(deps: AppDeps, now: Date) {
  const c = deps.config;
  const from = startOfFinancialYear(deps, now);
  const rows = await deps.db
    .select({
      kind: invoices.docKind,
      amount: invoices.amount,
      currency: invoices.currency,
      inrValue: invoices.inrValue,
      testMode: invoices.testMode,
    })
    .from(invoices)
    .where(
      and(
        gte(invoices.issuedAt, from),
        lt(invoices.issuedAt, now),
        inArray(invoices.docKind, ['receipt_voucher', 'receipt', 'tax_invoice', 'invoice', 'refund_voucher', 'credit_note']),
      ),
    );
  const { currencies } = moneyContext(deps);
  let turnover = 0;
  for (const r of rows.filter((x) => !x.testMode)) {
    const cur = currencyOf(currencies, r.currency);
    // A document's INR value is of its whole value; what was received is its amount, converted at today's table.
    const inr = r.currency === 'INR' ? r.amount : inrValueOf(r.amount, cur, inrRate(currencies, cur));
    turnover += r.kind === 'refund_voucher' || r.kind === 'credit_note' ? -inr : inr;
  }
  const threshold = c.GST_REGISTRATION_THRESHOLD * 100;
  const percent = Math.floor((turnover * 100) / threshold);
  return {
    regime: c.TAX_REGIME,
    financialYear: financialYear(now, { startMonth: c.INVOICE_FY_START_MONTH, timeZone: c.INVOICE_TIME_ZONE }),
    turnoverInr: turnover,
    thresholdInr: threshold,
    percent,
    thresholdWarning: c.TAX_REGIME === 'none' && percent >= THRESHOLD_WARN_PERCENT,
    lutMissing: c.TAX_REGIME === 'gst' && !lutValidAt(c, now),
    /** TEST documents of the year (test-mode payments): left out of the turnover and of every return. */
    testDocuments: rows.filter((x) => x.testMode).length,
  };
}
