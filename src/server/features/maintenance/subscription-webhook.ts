import type { AppDeps } from '../../deps.ts';
import type { Tx } from '../../db/client.ts';
import { type ChangeOutcome, EVENT_STATE, applySubscriptionChange } from './apply-subscription-event.ts';

/** The parts of a Razorpay `subscription.*` webhook we read (times in Unix seconds). */
export interface SubscriptionWebhook {
  event?: string;
  created_at?: number;
  payload?: {
    subscription?: {
      entity?: {
        id?: string;
        plan_id?: string;
        status?: string;
        current_start?: number | null;
        current_end?: number | null;
        notes?: unknown;
      };
    };
    payment?: { entity?: { id?: string; amount?: number; currency?: string; status?: string } };
  };
}

export const isSubscriptionEvent = (type: string) => type.startsWith('subscription.');

/** The subscription id an event is about, for the event log. */
export const subscriptionIdOf = (event: SubscriptionWebhook) => {
  const id = event.payload?.subscription?.entity?.id;
  return typeof id === 'string' ? id.slice(0, 100) : undefined;
};

const seconds = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? new Date(v * 1000) : null);

/**
 * One signed `subscription.*` webhook, inside the transaction that claimed its event id
 * (payments/webhook-routes.ts). Events we do not map, and bodies without a subscription, are
 * recorded as ignored.
 */
export async function applySubscriptionWebhook(
  deps: AppDeps,
  tx: Tx,
  type: string,
  event: SubscriptionWebhook,
): Promise<ChangeOutcome | 'ignored'> {
  const state = EVENT_STATE[type];
  const entity = event.payload?.subscription?.entity;
  if (!state || !entity || typeof entity.id !== 'string') return 'ignored';
  const p = event.payload?.payment?.entity;
  const payment =
    type === 'subscription.charged' && p && typeof p.id === 'string' && typeof p.amount === 'number' && typeof p.currency === 'string'
      ? { id: p.id.slice(0, 100), amount: p.amount, currency: p.currency, status: String(p.status ?? '') }
      : undefined;
  // A charged event without its payment says nothing we can credit.
  if (type === 'subscription.charged' && !payment) return 'ignored';
  const notes =
    entity.notes && typeof entity.notes === 'object' && !Array.isArray(entity.notes) ? (entity.notes as Record<string, unknown>) : {};
  return applySubscriptionChange(deps, tx, {
    providerSubscriptionId: entity.id,
    state,
    // The event's time orders it; one without (never from Razorpay) counts as now.
    at: seconds(event.created_at) ?? new Date(),
    periodStart: seconds(entity.current_start),
    periodEnd: seconds(entity.current_end),
    payment,
    planId: typeof entity.plan_id === 'string' ? entity.plan_id.slice(0, 100) : null,
    claimedOrderPublicId: typeof notes.order_id === 'string' ? notes.order_id : null,
  });
}
