import { useState } from 'react';
import type { InvoiceSummary } from '../../../contract/invoices.ts';
import { useOperation, useReloadOn } from '../../lib/use-operation.ts';
import { downloadOperation } from '../../lib/call-file.ts';
import { buttonClass } from '../../components/ui/button.tsx';
import { formatWhen } from '../../../domain/when.ts';
import { getAdminInvoicesPdf, getAdminOrdersInvoices, getInvoicesOrderById, getInvoicesPdf } from '../../../contract/invoices.ts';

const KIND_LABEL = {
  receipt_voucher: 'Receipt voucher',
  tax_invoice: 'Tax invoice',
  refund_voucher: 'Refund voucher',
  credit_note: 'Credit note',
  invoice: 'Invoice',
  receipt: 'Receipt',
} as const;
const INSTALLMENT_LABEL = { advance: 'advance payment', remaining: 'remaining payment' } as const;

/** What the document is and what it is for: a test-mode payment's is said to be no tax invoice (decision 120). */
const labelOf = (inv: InvoiceSummary) =>
  `${KIND_LABEL[inv.kind]}${inv.installment ? `, ${INSTALLMENT_LABEL[inv.installment]}` : inv.label ? ` · ${inv.label}` : ''}` +
  (inv.testMode ? ' · TEST, not a tax invoice' : '');

/** The invoices read of one order, on its side; a parent may call it first so that it is not read after the parent's own answer. */
export function useOrderInvoices(orderId: string, admin = false) {
  const agency = useOperation(getAdminOrdersInvoices, admin ? { params: { id: orderId } } : null);
  const customer = useOperation(getInvoicesOrderById, admin ? null : { params: { id: orderId } });
  return admin ? agency : customer;
}

/**
 * The tax invoices of one order with a PDF download each. `admin` reads them through
 * the back office; a customer only ever sees their own order's.
 */
export function OrderInvoices({ orderId, admin = false, refreshKey }: { orderId: string; admin?: boolean; refreshKey?: unknown }) {
  // The customer's or the back office's operations, by side (as src/web/features/workspace/workspace-api.ts picks them).
  const pdf = admin ? getAdminInvoicesPdf : getInvoicesPdf;
  const read = useOrderInvoices(orderId, admin);
  const invoices: InvoiceSummary[] | null = read.data?.invoices ?? null;
  const [downloadError, setDownloadError] = useState<string | null>(null);
  const error = downloadError ?? read.error;
  useReloadOn(refreshKey, read.reload);

  if (error) return <p className="text-sm text-danger">{error}</p>;
  if (!invoices) return null;
  if (invoices.length === 0) return <p className="text-sm text-muted">Your invoice appears here as soon as a payment is received.</p>;
  return (
    <ul className="flex flex-col gap-2" data-testid="invoices">
      {invoices.map((inv) => (
        <li key={inv.id} className="flex flex-wrap items-center justify-between gap-2 text-sm">
          <span className="min-w-0">
            <span className="font-mono text-ink">{inv.number}</span>
            <span className="text-muted">
              {' '}
              {/* The customer date format of the whole site, in the invoice's own zone (the PDF's calendar date), named. */}·{' '}
              {labelOf(inv)} · {formatWhen(inv.issuedAt)}
            </span>
          </span>
          <button
            type="button"
            className={buttonClass('secondary', 'px-3 py-1.5 text-xs')}
            aria-label={`Download invoice ${inv.number} (PDF)`}
            onClick={async () =>
              setDownloadError(await downloadOperation(pdf, { params: { id: inv.id } }, `${inv.number.replace(/\//g, '-')}.pdf`))
            }
          >
            Download PDF
          </button>
        </li>
      ))}
    </ul>
  );
}
