import { useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import type { SupportOverviewResponse } from '../../../contract/support.ts';
import { Button } from '../../components/ui/button.tsx';
import { errorMessage } from '../../lib/api.ts';
import { PanelCard, PanelError } from '../workspace/index.ts';
import {
  CHECKOUT_CANCELLED,
  cancelPlan,
  keepPlan,
  subscribeAndCheckout,
  subscriptionResultFromSearch,
  verifySubscription,
} from './plan-checkout.ts';
import { PLAN_LABELS, formatDay } from './support-api.ts';
import { MAINTENANCE_COVERAGE, monthlyPriceLabel } from '../../../domain/maintenance-plan.ts';
import { MAINTENANCE_TERMS_ANCHOR } from '../../../domain/maintenance-terms.ts';

// The customer's maintenance plan: Subscribe opens Checkout; coming back with the
// signed fields (the test checkout's redirect, or Razorpay's handler) verifies them on the server;
// then the plan's state, the end of the paid period and "Cancel at period end".

const RUNNING = new Set(['authenticated', 'active', 'pending']);

/** "₹4,165.00 + GST = ₹4,914.70 a month" (docs/decisions/322-maintenance-plan-gst.md); a server without the quote's fields: "₹4,165.00 a month + GST". */
type Offer = NonNullable<SupportOverviewResponse['planOffer']>;
const monthly = (offer: Offer) =>
  offer.totalLabel === undefined
    ? `${offer.priceLabel} a month${offer.plusGst ? ' + GST' : ''}`
    : monthlyPriceLabel({
        priceLabel: offer.priceLabel,
        totalLabel: offer.totalLabel,
        plusGst: offer.plusGst,
        gstIncluded: offer.gstIncluded === true,
      });
/** "CGST 9 % ₹374.85 · SGST 9 % ₹374.85": the month's tax lines, as its invoice will show them. */
const taxLines = (offer: Offer) => (offer.taxes ?? []).map((t) => `${t.kind} ${t.rate} % ${t.label}`).join(' · ');

export function PlanCard({
  orderId,
  plan,
  offer,
  covered,
  onChange,
}: {
  orderId: string;
  plan: SupportOverviewResponse['plan'];
  offer?: Offer;
  covered: boolean;
  onChange(): Promise<void>;
}) {
  const [params, setParams] = useSearchParams();
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [agreed, setAgreed] = useState(false);
  const verified = useRef(false);

  const verify = async (r: Parameters<typeof verifySubscription>[1]) => {
    try {
      const { plan: verified } = await verifySubscription(orderId, r);
      // Subscribed during the included support: nothing was charged, it starts later.
      setNotice(
        verified.startsAt
          ? `Your maintenance plan is set up — thank you! It starts on ${formatDay(verified.startsAt)}; nothing is charged before.`
          : 'Your maintenance plan is active — thank you!',
      );
      await onChange();
    } catch (err) {
      setError(errorMessage(err));
    }
  };

  // Back from the test checkout's Cancel: say so once, then take the mark out of the address.
  useEffect(() => {
    if (params.get('plan') !== CHECKOUT_CANCELLED) return;
    setNotice('You left the checkout: no plan was started and nothing was charged.');
    setParams(
      (p) => {
        const next = new URLSearchParams(p);
        next.delete('plan');
        return next;
      },
      { replace: true },
    );
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once, on arrival
  }, []);

  // Back from the test checkout: verify once, then take the fields out of the address.
  useEffect(() => {
    const r = subscriptionResultFromSearch(params);
    if (!r || verified.current) return;
    verified.current = true;
    setParams(
      (p) => {
        const next = new URLSearchParams(p);
        for (const k of ['razorpay_payment_id', 'razorpay_subscription_id', 'razorpay_signature']) next.delete(k);
        // The workspace chose this tab from those fields: keep it chosen once they are gone.
        next.set('tab', 'support');
        return next;
      },
      { replace: true },
    );
    void verify(r);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once, on arrival
  }, []);

  const run = async (action: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    try {
      await action();
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };

  const running = plan && RUNNING.has(plan.state);
  return (
    <PanelCard>
      <h2 className="text-lg font-semibold text-white">Maintenance plan</h2>
      {notice && (
        <p role="status" className="mt-2 text-sm text-success">
          {notice}
        </p>
      )}
      {plan && (
        <dl className="mt-3 grid grid-cols-[auto_1fr] gap-x-6 gap-y-1 text-sm" data-testid="plan-state">
          <dt className="text-muted">State</dt>
          <dd className="text-ink">
            {plan.cancelAtPeriodEnd && running ? `${PLAN_LABELS[plan.state]} · ends at the period's end` : PLAN_LABELS[plan.state]}
          </dd>
          {plan.startsAt && running && offer && (
            <dd className="col-span-2 text-ink" data-testid="plan-starts">
              Starts on {formatDay(plan.startsAt)}: {monthly(offer)}, cancel any time
            </dd>
          )}
          {plan.currentPeriodEnd && (
            <>
              <dt className="text-muted">Paid until</dt>
              <dd className="text-ink">{formatDay(plan.currentPeriodEnd)}</dd>
            </>
          )}
        </dl>
      )}
      {!running ? (
        <>
          <p className="mt-2 text-sm text-ink">
            {covered
              ? 'After your included support, a monthly plan keeps your website maintained and covered.'
              : 'Support for this website has ended. The monthly maintenance plan covers it again from today.'}
          </p>
          {offer && (
            <p className="mt-2 text-sm text-ink" data-testid="plan-offer">
              <strong className="text-white">{monthly(offer)}</strong>: {MAINTENANCE_COVERAGE}.{' '}
              {offer.startsAt
                ? `Subscribe now and it starts on ${formatDay(offer.startsAt)}, when your included support ends: nothing is charged before.`
                : 'It starts today.'}{' '}
              Cancel at the end of any month.
            </p>
          )}
          {offer && taxLines(offer) && (
            <p className="mt-1 text-xs text-muted" data-testid="plan-offer-tax">
              {offer.gstIncluded ? 'GST in the price' : 'GST each month'}: {taxLines(offer)}
            </p>
          )}
          {/* Accepted like the checkout's terms, recorded with the plan (docs/decisions/266-maintenance-terms-acceptance.md). */}
          <label className="mt-3 flex items-start gap-3 text-sm text-muted">
            <input
              type="checkbox"
              checked={agreed}
              onChange={(e) => setAgreed(e.target.checked)}
              className="mt-0.5 h-5 w-5 shrink-0 accent-accent"
              data-testid="plan-terms"
            />
            <span>
              I agree to the{' '}
              <a
                href={`/termsandconditions#${MAINTENANCE_TERMS_ANCHOR}`}
                target="_blank"
                rel="noopener"
                className="text-accent-soft underline underline-offset-2 hover:text-white"
              >
                maintenance plan terms
              </a>
            </span>
          </label>
          <Button
            className="mt-3"
            disabled={busy || !agreed}
            onClick={() =>
              run(async () => {
                const r = await subscribeAndCheckout(orderId);
                if (r) await verify(r);
              })
            }
          >
            Subscribe to the maintenance plan
          </Button>
        </>
      ) : plan.cancelAtPeriodEnd ? (
        // Set to end: it can be taken back until the paid period is over (docs/decisions/218-plan-cancel-undo.md).
        <Button
          variant="secondary"
          className="mt-3"
          disabled={busy}
          onClick={() =>
            run(async () => {
              await keepPlan(orderId);
              setNotice('Your plan continues: it renews every month as before.');
              await onChange();
            })
          }
        >
          Keep my plan
        </Button>
      ) : confirming ? (
        <div
          role="group"
          aria-label="Confirm the cancellation"
          className="mt-3 flex flex-col gap-2 rounded-xl border border-line p-3"
          data-testid="plan-cancel-confirm"
        >
          <p className="text-sm text-ink">
            Cancel the maintenance plan? It stays active
            {plan.currentPeriodEnd ? ` until ${formatDay(plan.currentPeriodEnd)}` : ' until the end of the paid period'} and nothing more is
            charged after that.
          </p>
          <div className="flex flex-wrap gap-2">
            <Button
              variant="secondary"
              disabled={busy}
              onClick={() =>
                run(async () => {
                  await cancelPlan(orderId);
                  setConfirming(false);
                  setNotice('Your plan ends at the end of the paid period; nothing more will be charged.');
                  await onChange();
                })
              }
            >
              Yes, cancel at period end
            </Button>
            <Button disabled={busy} onClick={() => setConfirming(false)}>
              Keep my plan
            </Button>
          </div>
        </div>
      ) : (
        <Button variant="secondary" className="mt-3" disabled={busy} onClick={() => setConfirming(true)}>
          Cancel at period end
        </Button>
      )}
      {error && (
        <div className="mt-3">
          <PanelError message={error} />
        </div>
      )}
    </PanelCard>
  );
}
