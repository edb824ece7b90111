// Back office: rules and names shared by the admin API and the admin screens.

/** Every action the audit log knows, so the page can offer them as a filter. */
export const AUDIT_ACTIONS = [
  'coupon.create',
  'coupon.update',
  'coupon.deactivate',
  'promotion.feature',
  'customer.sessions.revoke',
  'lead.handle',
  'contact.handle',
  'order.stage.complete',
  'order.stage.undo',
  'order.delivery_link.set',
  'order.internal_note.set',
  'order.payment.refund',
  'cashback.pay',
  'chat.close',
  'order.reminders.pause',
  'order.reminders.resume',
  'payment.reconcile',
  'order.file.upload',
  'order.file.delete',
  'order.message.send',
  'order.review.open',
  'order.review.comment',
  'order.review.comment.resolve',
  // The founder opened a round's live site for review (decision 240): a site token was issued.
  'order.review.site_link',
  'support.message.send',
  // Site care (docs/decisions/325): a URL watched or no longer, the owner's "keep watching", a care-report run.
  'order.site.add',
  'order.site.remove',
  'order.site_care.keep',
  'care_reports.run',
  'support.request.state',
  // A person deleted their own account (decision 192); the record names no personal data.
  'account.delete',
  // The owner's staff list (decision 191).
  'staff.invite',
  'staff.remove',
  // Change requests and the add-ons catalogue (decision 250).
  'order.change.create',
  'order.change.quote',
  'addon.create',
  'addon.update',
  // The owner read Razorpay's settlements now (docs/decisions/323-razorpay-settlements.md).
  'payouts.sync',
  // The owner moved a maintenance plan charged without GST to its price with GST (docs/decisions/322-maintenance-plan-gst.md).
  'maintenance.reprice',
  // Cancelling an order and asking a failed refund again (docs/decisions/321-cancel-and-refund.md).
  'order.cancel',
  'order.refund.retry',
  // A scheduled pass's row that gave up, tried again from the overview (docs/decisions/339-isolated-job-passes.md).
  'pass-row.retry',
  // The live chat's availability switch and the owner's canned replies (docs/decisions/347-chat-availability-canned-replies-csat.md).
  'chat.availability',
  'canned_reply.create',
  'canned_reply.update',
  'canned_reply.delete',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export const AUDIT_ENTITIES = [
  'coupon',
  'setting',
  'user',
  'lead',
  'contact',
  'order',
  'cashback',
  'chat',
  'payment',
  'support_request',
  'staff_member',
  'order_change',
  'addon',
  'maintenance_subscription',
  'pass_row',
  'canned_reply',
] as const;
export type AuditEntity = (typeof AUDIT_ENTITIES)[number];

/** A coupon's validity window: the end strictly after the start when both are set. */
export const isValidWindow = (from: string | null | undefined, until: string | null | undefined) =>
  !from || !until || Date.parse(until) > Date.parse(from);

/**
 * The one state a promo coupon is in at `now`, for its single badge in the back office (decision
 * 127). A code past its end is "expired" even when also switched off (switching it on again would
 * not help: its dates must change); a switched-off code is "inactive" before its start; a code at
 * its use limit is "used_up". Checkout applies the same rules (coupon-limits.ts).
 */
export const COUPON_STATES = ['active', 'scheduled', 'expired', 'inactive', 'used_up'] as const;
export type CouponState = (typeof COUPON_STATES)[number];

export function couponState(
  c: { active: boolean; validFrom: Date | string | null; validUntil: Date | string | null; maxUses: number | null; redemptions: number },
  now: Date,
): CouponState {
  const at = (d: Date | string) => (typeof d === 'string' ? Date.parse(d) : d.getTime());
  if (c.validUntil !== null && at(c.validUntil) <= now.getTime()) return 'expired';
  if (!c.active) return 'inactive';
  if (c.validFrom !== null && at(c.validFrom) > now.getTime()) return 'scheduled';
  if (c.maxUses !== null && c.redemptions >= c.maxUses) return 'used_up';
  return 'active';
}

/** A delivery link the customer may safely click: an absolute http(s) URL with a host. */
export function isDeliveryUrl(value: string): boolean {
  if (value.length > 2000 || /\s/.test(value)) return false;
  try {
    const u = new URL(value);
    return (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname.length > 0;
  } catch {
    return false;
  }
}

/** A customer-visible stage note, and the reason of an undo. */
export const NOTE_MAX = 500;
/** The founder's internal note on an order. */
export const INTERNAL_NOTE_MAX = 5000;
