import { useState } from 'react';
import { Link } from 'react-router';
import type { OverviewResponse } from '../../../contract/admin-overview.ts';
import { Button } from '../../components/ui/button.tsx';
import { ErrorText } from './admin-ui.tsx';
import { formatMinor, formatWhen } from './format.ts';
import { adminAction } from './use-admin-data.ts';

const EXTEND_DAYS = 30;

/**
 * What needs the founder before the numbers (issue 12 items 6 and 12): duplicate payments to
 * refund, and a featured offer that has ended — the banner says "Offer expired!" to every visitor
 * (a fresh install features the spec's FIRSTWEB25, ended 31 January 2025).
 */
export function OverviewAlerts({ data, onChange }: { data: OverviewResponse; onChange(): Promise<void> }) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const offer = data.featuredOffer;

  async function extend() {
    if (!offer) return;
    setBusy(true);
    const until = new Date(Date.now() + EXTEND_DAYS * 86_400_000);
    until.setUTCHours(23, 59, 59, 0);
    const { error: err } = await adminAction('PATCH', `coupons/${offer.couponId}`, { validUntil: until.toISOString() });
    setBusy(false);
    setError(err);
    if (!err) await onChange();
  }

  if (data.refundsNeeded.length === 0 && !offer?.hasEnded && !error) return null;
  return (
    <div className="flex flex-col gap-3">
      {error && <ErrorText>{error}</ErrorText>}
      {data.refundsNeeded.length > 0 && (
        <section className="rounded-2xl border-2 border-danger/70 bg-danger/10 p-4" data-testid="overview-refunds" aria-labelledby="refunds-needed">
          <h2 id="refunds-needed" className="text-lg font-semibold text-white">
            Refund needed ({data.refundsNeeded.length})
          </h2>
          <p className="text-sm text-ink">These orders were paid twice; the customers were told the second charge will be refunded.</p>
          <ul className="mt-2 flex flex-col gap-1 text-sm">
            {data.refundsNeeded.map((r) => (
              <li key={r.providerPaymentId} className="break-words">
                <Link to={`/admin/orders/${encodeURIComponent(r.orderId)}`} className="font-mono text-accent-soft underline underline-offset-2">
                  {r.orderId}
                </Link>{' '}
                · {r.kind} paid again · {formatMinor(r.amount, r.currency)} · {formatWhen(r.paidAt)}
              </li>
            ))}
          </ul>
        </section>
      )}
      {offer?.hasEnded && (
        <section className="rounded-2xl border-2 border-amber-400/70 bg-amber-400/10 p-4" data-testid="offer-ended" aria-labelledby="offer-ended">
          <h2 id="offer-ended" className="text-lg font-semibold text-white">
            The featured offer has ended
          </h2>
          <p className="text-sm text-ink">
            <span className="font-mono">{offer.code}</span> ended {formatWhen(offer.endsAt)}. Every visitor sees “Offer expired!” in the banner and the popup until you extend it or feature another coupon.
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
