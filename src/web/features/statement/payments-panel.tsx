import { useState } from 'react';
import {
  LEDGER_KIND_LABEL,
  getAdminOrdersStatement,
  getAdminOrdersStatementPdf,
  getOrdersStatement,
  getOrdersStatementPdf,
  type StatementResponse,
} from '../../../contract/statement.ts';
import { formatMoney } from '../../../domain/money.ts';
import { buttonClass } from '../../components/ui/button.tsx';
import { downloadOperation } from '../../lib/call-file.ts';
import { useOperation } from '../../lib/use-operation.ts';
import { OrderInvoices, useOrderInvoices } from '../invoices/index.ts';
import { PanelCard, PanelError, PanelLoading } from '../workspace/index.ts';
import type { Workspace } from '../workspace/index.ts';
import { formatDate } from '../../../domain/when.ts';

// The order's "Payments" tab (docs/decisions/320-order-ledger.md): its statement of account, as the
// server keeps it — every charge, tax, payment, refund and credit with its document, and the totals.
// The browser shows the figures it is given and adds none.

const STATEMENT = { customer: getOrdersStatement, agency: getAdminOrdersStatement } as const;
const STATEMENT_PDF = { customer: getOrdersStatementPdf, agency: getAdminOrdersStatementPdf } as const;

/** The line's day in the reader's own zone ("29 Nov 2026"): a statement lists days, not minutes. */
const day = (iso: string) => formatDate(iso, undefined, true);

/** "−₹18,394.00" for a negative amount: the sign before the symbol. */
export const signedMoney = (minor: number, c: Pick<StatementResponse, 'symbol' | 'minorDigits'>) =>
  `${minor < 0 ? '−' : ''}${formatMoney(Math.abs(minor), c)}`;

function Figure({ label, value, testId, strong = false }: { label: string; value: string; testId: string; strong?: boolean }) {
  return (
    <div className="rounded-xl border border-line p-3">
      <dt className="text-xs text-muted">{label}</dt>
      <dd className={`mt-1 text-base ${strong ? 'font-bold text-white' : 'text-ink'}`} data-testid={testId}>
        {value}
      </dd>
    </div>
  );
}

export default function PaymentsPanel({ ws }: { ws: Workspace }) {
  const read = useOperation(STATEMENT[ws.side], { params: { orderId: ws.orderId } });
  // Beside the statement, not after it: the invoices below read the same query.
  useOrderInvoices(ws.orderId, ws.side === 'agency');
  const [error, setError] = useState<string | null>(null);
  const s = read.data;
  if (read.error) return <PanelError message={read.error} />;
  if (!s) return <PanelLoading label="Loading the statement" />;
  const t = s.totals;
  const owedToCustomer = t.balanceDue < 0;
  return (
    <div className="flex flex-col gap-5">
      <PanelCard>
        <div className="mb-4 flex flex-wrap items-center justify-between gap-3">
          <h2 className="text-lg font-semibold text-white">Statement of account</h2>
          <button
            type="button"
            className={buttonClass('secondary', 'min-h-11 px-4 text-sm')}
            onClick={async () =>
              setError(await downloadOperation(STATEMENT_PDF[ws.side], { params: { orderId: ws.orderId } }, `statement-${s.orderId}.pdf`))
            }
          >
            Download PDF
          </button>
        </div>
        {s.state === 'cancelled' && (
          <p
            className="mb-4 rounded-xl border border-amber-300/40 bg-amber-300/10 px-4 py-2 text-sm text-amber-100"
            data-testid="statement-cancelled"
          >
            This order was cancelled: nothing more is due.
          </p>
        )}
        {error && <PanelError message={error} />}
        <dl className="grid grid-cols-2 gap-3 sm:grid-cols-[repeat(auto-fit,minmax(9rem,1fr))]" data-testid="statement-totals">
          <Figure label={t.tax > 0 ? 'Total (tax included)' : 'Total'} value={signedMoney(t.charged, s)} testId="statement-charged" />
          <Figure label="Paid" value={signedMoney(t.paid, s)} testId="statement-paid" />
          {t.refunded !== 0 && <Figure label="Refunded" value={signedMoney(t.refunded, s)} testId="statement-refunded" />}
          {t.credited !== 0 && <Figure label="Credited" value={signedMoney(t.credited, s)} testId="statement-credited" />}
          <Figure
            label={owedToCustomer ? 'Owed to you' : 'Balance due'}
            value={signedMoney(Math.abs(t.balanceDue), s)}
            testId="statement-balance"
            strong
          />
        </dl>
        {t.tax > 0 && <p className="mt-2 text-xs text-muted">Of the total, {signedMoney(t.tax, s)} is tax.</p>}
      </PanelCard>
      <PanelCard>
        <h3 className="mb-3 font-semibold text-white">Every line</h3>
        {s.lines.length === 0 ? (
          <p className="text-sm text-muted">Nothing yet: the lines appear with the first payment.</p>
        ) : (
          <table className="w-full table-fixed border-collapse text-sm" data-testid="statement-lines">
            <caption className="sr-only">Charges, payments, refunds and credits of order {s.orderId}, oldest first</caption>
            <thead>
              <tr className="border-b border-line text-left text-xs text-muted">
                <th scope="col" className="hidden w-28 py-2 pr-2 font-medium sm:table-cell">
                  Date
                </th>
                <th scope="col" className="py-2 pr-2 font-medium">
                  Description
                </th>
                <th scope="col" className="hidden w-40 py-2 pr-2 font-medium md:table-cell">
                  Document
                </th>
                <th scope="col" className="w-28 py-2 text-right font-medium sm:w-32">
                  Amount
                </th>
              </tr>
            </thead>
            <tbody>
              {s.lines.map((l, i) => (
                <tr key={i} className="border-b border-line/60 align-top">
                  <td className="hidden py-2 pr-2 text-muted sm:table-cell">{day(l.at)}</td>
                  <td className="py-2 pr-2 wrap-anywhere">
                    <span className="text-muted">{LEDGER_KIND_LABEL[l.kind]}:</span> <span className="text-ink">{l.description}</span>
                    <span className="block text-xs text-muted sm:hidden">{day(l.at)}</span>
                    {l.documentNumber && <span className="block font-mono text-xs text-muted md:hidden">{l.documentNumber}</span>}
                  </td>
                  <td className="hidden py-2 pr-2 font-mono text-xs text-muted md:table-cell">{l.documentNumber ?? '—'}</td>
                  <td className={`py-2 text-right font-mono whitespace-nowrap ${l.amount < 0 ? 'text-emerald-300' : 'text-ink'}`}>
                    {signedMoney(l.amount, s)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </PanelCard>
      <PanelCard>
        <h3 className="mb-3 font-semibold text-white">Documents</h3>
        <OrderInvoices orderId={ws.orderId} admin={ws.side === 'agency'} refreshKey={t.balanceDue} />
      </PanelCard>
    </div>
  );
}
