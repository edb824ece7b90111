import { useState } from 'react';
import { Link } from 'react-router';
import type { OverviewResponse } from '../../../contract/admin-overview.ts';
import { postAdminMaintenanceSubscriptionsReprice } from '../../../contract/maintenance.ts';
import { Button } from '../../components/ui/button.tsx';
import { runOperation } from '../../lib/use-operation.ts';
import { ErrorText } from '../../components/back-office/admin-ui.tsx';
import { formatMinor, formatWhen } from '../../components/back-office/format.ts';

type Plan = NonNullable<OverviewResponse['maintenance']['withoutGst']>[number];

/**
 * Maintenance plans opened when the plan was charged without its GST (docs/decisions/322-maintenance-plan-gst.md):
 * the owner moves each one, by its own button, to its price with GST from its next cycle; the
 * customer is mailed the new amount first. Staff get no list (the field is the owner's).
 */
export function PlansWithoutGst({ plans, onChange }: { plans: Plan[]; onChange(): Promise<void> }) {
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  if (plans.length === 0) return null;

  async function reprice(id: string) {
    setBusy(id);
    const { error: err } = await runOperation(postAdminMaintenanceSubscriptionsReprice, { params: { id } });
    setBusy(null);
    setError(err);
    if (!err) await onChange();
  }

  return (
    <section
      className="rounded-2xl border-2 border-amber-400/70 bg-amber-400/10 p-4"
      data-testid="plans-without-gst"
      aria-labelledby="plans-without-gst"
    >
      <h2 id="plans-without-gst" className="text-lg font-semibold text-white">
        Maintenance plans priced without GST ({plans.length})
      </h2>
      <p className="text-sm text-ink">
        These plans charge the plan’s price without the GST it owes. Each can move to its price with GST from its next cycle; the customer
        is mailed the new amount first, and nothing changes before that date.
      </p>
      {error && <ErrorText>{error}</ErrorText>}
      <ul className="mt-2 flex flex-col gap-3 text-sm">
        {plans.map((p) => (
          <li key={p.id} className="flex flex-wrap items-center gap-x-3 gap-y-2" data-testid="plan-without-gst">
            <span className="min-w-0 break-words">
              <Link
                to={`/admin/orders/${encodeURIComponent(p.orderId)}`}
                className="font-mono text-accent-soft underline underline-offset-2"
              >
                {p.orderId}
              </Link>{' '}
              · {formatMinor(p.amount, p.currency)} a month
              {p.pendingAmount !== null
                ? ` · moves to ${formatMinor(p.pendingAmount, p.currency)} on ${formatWhen(p.pendingFrom)}`
                : ` · with GST ${formatMinor(p.newAmount, p.currency)}`}
            </span>
            {p.pendingAmount === null && (
              <Button variant="secondary" disabled={busy !== null} onClick={() => reprice(p.id)}>
                Charge {formatMinor(p.newAmount, p.currency)} from the next cycle
              </Button>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
