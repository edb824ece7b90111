import { useState } from 'react';
import type { AdminMaintenance } from '../../../contract/maintenance.ts';
import { formatMinor, formatWhen } from '../../components/back-office/format.ts';
import { PLAN_LABELS, formatDay } from './support-api.ts';
import { buttonClass } from '../../components/ui/button.tsx';
import { downloadOperation } from '../../lib/call-file.ts';
import { getAdminInvoicesPdf } from '../../../contract/invoices.ts';
import { useCanSee } from '../../components/back-office/owner-only.tsx';
import { maintenancePeriodLabel } from '../../../domain/maintenance-plan.ts';

// The founder's view of one order's maintenance plan: state, next charge, and
// the charges with their invoices.

export function MaintenanceCharges({ maintenance }: { maintenance: AdminMaintenance | null }) {
  // Invoices are the owner's: staff see the charges without the PDFs.
  const canDownload = useCanSee('invoices');
  if (!maintenance) return <p className="mt-2 text-sm text-muted">No maintenance plan.</p>;
  const m = maintenance;
  return (
    <div className="mt-2 flex flex-col gap-3 text-sm" data-testid="admin-maintenance">
      <dl className="grid grid-cols-[auto_1fr] gap-x-6 gap-y-1">
        <dt className="text-muted">State</dt>
        <dd className="text-ink">
          {PLAN_LABELS[m.state]}
          {m.cancelAtPeriodEnd ? ' · cancels at period end' : ''}
        </dd>
        {m.amount !== undefined && m.currency && (
          <>
            <dt className="text-muted">Price</dt>
            <dd className="text-ink">{formatMinor(m.amount, m.currency)} a month</dd>
          </>
        )}
        {m.pending && m.currency && (
          <>
            <dt className="text-muted">Price change</dt>
            <dd className="text-ink" data-testid="plan-pending-price">
              {formatMinor(m.pending.amount, m.currency)} a month{m.pending.from ? ` from ${formatDay(m.pending.from)}` : ''} (with GST; the
              customer was told)
            </dd>
          </>
        )}
        <dt className="text-muted">Paid until</dt>
        <dd className="text-ink">{m.currentPeriodEnd ? formatDay(m.currentPeriodEnd) : '—'}</dd>
        <dt className="text-muted">Next charge</dt>
        <dd className="text-ink" data-testid="next-charge">
          {m.nextChargeAt ? formatDay(m.nextChargeAt) : 'None'}
        </dd>
      </dl>
      {m.charges && m.charges.length > 0 && (
        <ul className="flex flex-col gap-1" aria-label="Plan charges">
          {m.charges.map((c) => (
            <li
              key={c.paymentId}
              data-testid="plan-charge"
              className="flex flex-wrap items-center justify-between gap-2 wrap-anywhere text-ink"
            >
              <span className="min-w-0">
                {maintenancePeriodLabel(c.periodStart)} · {formatWhen(c.chargedAt)} · {formatMinor(c.amount, c.currency)} ·{' '}
                {formatDay(c.periodStart)}–{formatDay(c.periodEnd)} · {c.invoice ? `invoice ${c.invoice.number}` : 'no invoice'}
              </span>
              {c.invoice && canDownload && <InvoiceDownload id={c.invoice.id} number={c.invoice.number} />}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** The charge's tax invoice as a PDF (the back office's invoice route, as the order's invoices use it). */
function InvoiceDownload({ id, number }: { id: string; number: string }) {
  const [error, setError] = useState<string | null>(null);
  return (
    <span className="flex flex-col items-end">
      <button
        type="button"
        className={buttonClass('secondary', 'px-3 py-1.5 text-xs')}
        aria-label={`Download invoice ${number} (PDF)`}
        onClick={async () =>
          setError(await downloadOperation(getAdminInvoicesPdf, { params: { id } }, `${number.replace(/\//g, '-')}.pdf`))
        }
      >
        Download PDF
      </button>
      {error && (
        <span role="alert" className="text-xs text-danger">
          {error}
        </span>
      )}
    </span>
  );
}
