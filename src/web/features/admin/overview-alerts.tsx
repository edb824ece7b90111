import { useState } from 'react';
import { Link } from 'react-router';
import { postAdminPassRowsRetry, type OverviewResponse } from '../../../contract/admin-overview.ts';
import { Button } from '../../components/ui/button.tsx';
import { ErrorText } from '../../components/back-office/admin-ui.tsx';
import { formatMinor, formatWhen } from '../../components/back-office/format.ts';
import { useCanSee } from '../../components/back-office/owner-only.tsx';
import { runOperation } from '../../lib/use-operation.ts';
import { patchAdminCouponsById } from '../../../contract/admin-coupons.ts';
import { postAdminRefundsRetry } from '../../../contract/refunds.ts';

const EXTEND_DAYS = 30;

/**
 * What needs the founder before the numbers: duplicate payments to
 * refund, and a featured offer that has ended — the banner says "Offer expired!" to every visitor
 * (a fresh install features the spec's FIRSTWEB25, ended 31 January 2025).
 */
export function OverviewAlerts({ data, onChange }: { data: OverviewResponse; onChange(): Promise<void> }) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // Refunds and the promotion are the owner's to act on: staff are not shown them.
  const refunds = (useCanSee('refunds') ? data.refundsNeeded : undefined) ?? [];
  // Refunds Razorpay refused or reported failed (docs/decisions/321-cancel-and-refund.md), each with a retry.
  const failedRefunds = (useCanSee('refunds') ? data.refundsFailed : undefined) ?? [];
  const offer = useCanSee('coupons') ? data.featuredOffer : null;
  const stepUpOff = data.stepUp === 'off';
  // Rows of the scheduled passes that gave up (docs/decisions/339-isolated-job-passes.md), each with a retry: the owner's.
  const failedRows = data.failedPassRows ?? [];
  const failed = data.failedWork.jobs + data.failedWork.mails + failedRows.length;

  async function extend() {
    if (!offer) return;
    setBusy(true);
    const until = new Date(Date.now() + EXTEND_DAYS * 86_400_000);
    until.setUTCHours(23, 59, 59, 0);
    const { error: err } = await runOperation(patchAdminCouponsById, {
      params: { id: offer.couponId },
      body: { validUntil: until.toISOString() },
    });
    setBusy(false);
    setError(err);
    if (!err) await onChange();
  }

  /** A Retry button's call: busy while it runs, its error shown, the overview read again. */
  async function act(run: () => Promise<{ error: string | null }>) {
    setBusy(true);
    const { error: err } = await run();
    setBusy(false);
    setError(err);
    await onChange();
  }
  const retryRow = (id: string) => act(() => runOperation(postAdminPassRowsRetry, { params: { id } }));
  const retry = (id: string) => act(() => runOperation(postAdminRefundsRetry, { params: { id } }));

  const tax = data.tax;
  const down = data.sitesDown;
  if (
    failedRefunds.length === 0 &&
    refunds.length === 0 &&
    !offer?.hasEnded &&
    !stepUpOff &&
    failed === 0 &&
    !error &&
    !tax.thresholdWarning &&
    !tax.lutMissing &&
    down === 0
  )
    return null;
  return (
    <div className="flex flex-col gap-3">
      {error && <ErrorText>{error}</ErrorText>}
      {down > 0 && (
        <section className="rounded-2xl border-2 border-danger/70 bg-danger/10 p-4" data-testid="sites-down" aria-labelledby="sites-down">
          <h2 id="sites-down" className="text-lg font-semibold text-white">
            {down} site{down === 1 ? '' : 's'} down
          </h2>
          <p className="text-sm text-ink">
            Watched sites that failed two checks in a row.{' '}
            <Link to="/admin/sites" className="text-accent-soft underline">
              See the watched sites
            </Link>
          </p>
        </section>
      )}
      {tax.thresholdWarning && (
        <section
          className="rounded-2xl border-2 border-amber-400/70 bg-amber-400/10 p-4"
          data-testid="gst-threshold"
          aria-labelledby="gst-threshold"
        >
          <h2 id="gst-threshold" className="text-lg font-semibold text-white">
            Turnover at {tax.percent} % of the GST registration threshold
          </h2>
          <p className="text-sm text-ink">
            {formatMinor(tax.turnoverInr, 'INR')} received in {tax.financialYear} of {formatMinor(tax.thresholdInr, 'INR')}. Register for
            GST before you pass it, then set TAX_REGIME=gst and SELLER_GSTIN (see the runbook).
          </p>
        </section>
      )}
      {tax.lutMissing && (
        <section
          className="rounded-2xl border-2 border-amber-400/70 bg-amber-400/10 p-4"
          data-testid="gst-lut-missing"
          aria-labelledby="gst-lut-missing"
        >
          <h2 id="gst-lut-missing" className="text-lg font-semibold text-white">
            No valid Letter of Undertaking
          </h2>
          <p className="text-sm text-ink">Exports are charged IGST until GST_LUT_ARN and GST_LUT_VALID_UNTIL name a valid LUT.</p>
        </section>
      )}
      {stepUpOff && <StepUpOff />}
      {failed > 0 && (
        <section
          className="rounded-2xl border-2 border-danger/70 bg-danger/10 p-4"
          data-testid="overview-failed-work"
          aria-labelledby="failed-work"
        >
          <h2 id="failed-work" className="text-lg font-semibold text-white">
            Background work failed
          </h2>
          <p className="text-sm text-ink">
            {data.failedWork.mails} e-mail{data.failedWork.mails === 1 ? '' : 's'}, {data.failedWork.jobs} job
            {data.failedWork.jobs === 1 ? '' : 's'}
            {failedRows.length > 0 ? ` and ${failedRows.length} scheduled task${failedRows.length === 1 ? '' : 's'}` : ''} gave up after
            their last retry. The server log and docs/operations.md say what went wrong and how to retry.
          </p>
          {failedRows.length > 0 && (
            <ul className="mt-2 flex flex-col gap-2 text-sm" data-testid="overview-failed-rows">
              {failedRows.map((r) => (
                <li key={r.id} className="flex flex-wrap items-center gap-x-2 gap-y-1 break-words">
                  <span className="font-mono">{r.pass}</span>
                  <span className="min-w-0 break-all">
                    · {r.rowKey} · {r.attempts} tries · {formatWhen(r.failedAt)}
                    {r.lastError ? ` · ${r.lastError}` : ''}
                  </span>
                  <Button variant="secondary" className="px-3 py-1.5" onClick={() => void retryRow(r.id)} disabled={busy}>
                    Retry
                  </Button>
                </li>
              ))}
            </ul>
          )}
        </section>
      )}
      {failedRefunds.length > 0 && (
        <section
          className="rounded-2xl border-2 border-danger/70 bg-danger/10 p-4"
          data-testid="overview-refunds-failed"
          aria-labelledby="refunds-failed"
        >
          <h2 id="refunds-failed" className="text-lg font-semibold text-white">
            Refund failed ({failedRefunds.length})
          </h2>
          <p className="text-sm text-ink">Razorpay did not refund these. Retry asks it again; the order page shows each refund.</p>
          <ul className="mt-2 flex flex-col gap-2 text-sm">
            {failedRefunds.map((r) => (
              <li key={r.id} className="flex flex-wrap items-center gap-x-2 gap-y-1 break-words">
                <Link
                  to={`/admin/orders/${encodeURIComponent(r.orderId)}`}
                  className="font-mono text-accent-soft underline underline-offset-2"
                >
                  {r.orderId}
                </Link>
                <span>
                  · {formatMinor(r.amount, r.currency)} · {formatWhen(r.failedAt)}
                  {r.failureReason ? ` · ${r.failureReason}` : ''}
                </span>
                <Button variant="secondary" className="px-3 py-1.5" onClick={() => void retry(r.id)} disabled={busy}>
                  Retry
                </Button>
              </li>
            ))}
          </ul>
        </section>
      )}
      {refunds.length > 0 && (
        <section
          className="rounded-2xl border-2 border-danger/70 bg-danger/10 p-4"
          data-testid="overview-refunds"
          aria-labelledby="refunds-needed"
        >
          <h2 id="refunds-needed" className="text-lg font-semibold text-white">
            Refund needed ({refunds.length})
          </h2>
          <p className="text-sm text-ink">
            These payments go back: an order paid twice, or a change paid at a quote that changed after its checkout opened. The customers
            were told they will be refunded.
          </p>
          <ul className="mt-2 flex flex-col gap-1 text-sm">
            {refunds.map((r) => (
              <li key={r.providerPaymentId} className="break-words">
                <Link
                  to={`/admin/orders/${encodeURIComponent(r.orderId)}`}
                  className="font-mono text-accent-soft underline underline-offset-2"
                >
                  {r.orderId}
                </Link>{' '}
                · {r.refunding ? `${r.kind} paid at an old quote · being refunded` : `${r.kind} paid again`} ·{' '}
                {formatMinor(r.amount, r.currency)} · {formatWhen(r.paidAt)}
              </li>
            ))}
          </ul>
        </section>
      )}
      {offer?.hasEnded && (
        <section
          className="rounded-2xl border-2 border-amber-400/70 bg-amber-400/10 p-4"
          data-testid="offer-ended"
          aria-labelledby="offer-ended"
        >
          <h2 id="offer-ended" className="text-lg font-semibold text-white">
            The featured offer has ended
          </h2>
          <p className="text-sm text-ink">
            <span className="font-mono">{offer.code}</span> ended {formatWhen(offer.endsAt)}. Every visitor sees “Offer expired!” in the
            banner and the popup until you extend it or feature another coupon.
          </p>
          <div className="mt-3 flex flex-wrap items-center gap-3">
            <Button onClick={extend} disabled={busy}>
              Extend {offer.code} by {EXTEND_DAYS} days
            </Button>
            <Link to="/admin/coupons" className="text-sm font-semibold text-accent-soft underline underline-offset-2">
              Feature another coupon
            </Link>
          </div>
        </section>
      )}
    </div>
  );
}

/**
 * ADMIN_STEP_UP=off: the server asks no passkey for the back office. Said on
 * every visit to the overview, with what it risks and how to turn the protection back on, so the
 * setting is a choice someone keeps making, not one forgotten after a test.
 */
function StepUpOff() {
  return (
    <section
      role="alert"
      className="rounded-2xl border-2 border-amber-400/70 bg-amber-400/10 p-4"
      data-testid="step-up-off"
      aria-labelledby="step-up-off"
    >
      <h2 id="step-up-off" className="text-lg font-semibold text-white">
        The back office is not protected by a second factor
      </h2>
      <p className="text-sm text-ink">
        The server runs with <code className="font-mono">ADMIN_STEP_UP=off</code>: an e-mail code alone opens the back office. Anyone who
        can read the owner's or a staff member's mailbox can sign in here and see every customer's personal data, issue refunds and change
        coupons. Set <code className="font-mono">ADMIN_STEP_UP=passkey</code> (the default) and restart the server to require a passkey.
      </p>
    </section>
  );
}
