import { and, desc, eq, lt, sql } from 'drizzle-orm';
import { formatMoney } from '../../../domain/money.ts';
import type { AppDeps } from '../../deps.ts';
import { installments, orders } from '../../db/schema/orders.ts';
import { mailOutbox, users } from '../../db/schema/platform.ts';
import { checkoutFollowups } from '../../db/schema/checkout-followups.ts';
import { renderEmail } from '../mail/render-email.ts';
import { checkCoupon } from '../coupons/check-coupon.ts';
import { newerDraftWhere, paidSinceWhere } from './draft-rules.ts';
import { displayCurrency, moneyContext } from '../../lib/money-context.ts';
import { guardRow, notParked } from '../../lib/pass-rows.ts';

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;

/**
 * One friendly e-mail for an advance checkout opened and not paid within ABANDONED_CHECKOUT_HOURS:
 * the customer's latest draft only, never if they paid an order since, at most one per customer per
 * retention period. Claimed with FOR UPDATE SKIP LOCKED; the mail and the marker row are written in
 * one transaction (exactly once across instances).
 */
export async function followUpAbandonedCheckouts(deps: AppDeps, now: Date = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - deps.config.ABANDONED_CHECKOUT_HOURS * HOUR_MS);
  const since = new Date(now.getTime() - deps.config.DRAFT_RETENTION_DAYS * DAY_MS);
  let sent = 0;
  for (let i = 0; i < 50; i++) {
    const done = await guardRow(deps, 'checkout-follow-ups', now, (claim) =>
      deps.db.transaction(async (tx) => {
        const [draft] = await tx
          .select({ order: orders, email: users.email, advance: installments.amount })
          .from(orders)
          .innerJoin(users, eq(users.id, orders.userId))
          .innerJoin(installments, and(eq(installments.orderId, orders.id), eq(installments.kind, 'advance')))
          .where(
            and(
              eq(orders.state, 'awaiting_advance'),
              lt(orders.createdAt, cutoff),
              notParked('checkout-follow-ups', orders.id, now),
              sql`${orders.createdAt} > ${since}`,
              sql`not exists (select 1 from checkout_followups f where f.user_id = ${orders.userId} and f.sent_at > ${since})`,
              sql`not exists (select 1 from orders p where ${paidSinceWhere})`,
              sql`not exists (select 1 from orders n where ${newerDraftWhere})`,
            ),
          )
          .orderBy(orders.createdAt)
          .limit(1)
          .for('update', { of: orders, skipLocked: true });
        if (!draft) return false;
        const { order } = draft;
        claim(order.id);
        // Another instance may have mailed this customer for an older draft a moment ago.
        const [recent] = await tx
          .select({ id: checkoutFollowups.id })
          .from(checkoutFollowups)
          .where(and(eq(checkoutFollowups.userId, order.userId), sql`${checkoutFollowups.sentAt} > ${since}`))
          .orderBy(desc(checkoutFollowups.sentAt))
          .limit(1);
        if (recent) return true;
        const coupon = order.couponCode
          ? await checkCoupon(tx, {
              userId: order.userId,
              code: order.couponCode,
              now,
              referralValidUntil: moneyContext(deps).referralValidUntil,
            })
          : null;
        const couponStillValid = coupon?.ok === true;
        const amount = formatMoney(draft.advance, displayCurrency(moneyContext(deps), order.currency));
        const mail = renderEmail(deps.config.BRAND_NAME, {
          subject: 'Your website is one step away',
          heading: 'Still thinking it over?',
          paragraphs: [
            `You started the advance payment (${amount}) for your custom website but did not finish. No money was taken.`,
            couponStillValid
              ? `Good news: your code ${order.couponCode} is still valid, so the discount still applies.`
              : 'Whenever you are ready, you can start again in a minute.',
            'Questions first? Just reply to this e-mail or chat with us on the website.',
          ],
          action: { label: 'Continue to payment', url: `${deps.config.publicUrl}/pay` },
        });
        await tx.insert(mailOutbox).values({
          toAddress: draft.email.toLowerCase(),
          template: 'checkout-followup',
          subject: mail.subject,
          textBody: mail.text,
          htmlBody: mail.html,
        });
        await tx.insert(checkoutFollowups).values({
          userId: order.userId,
          orderPublicId: order.publicId,
          couponCode: couponStillValid ? order.couponCode : null,
          sentAt: now,
        });
        return 'sent' as const;
      }),
    );
    if (!done) break;
    if (done === 'sent') sent++;
  }
  if (sent > 0) void deps.mailer.drain().catch((err) => deps.log.error({ err }, 'mail worker'));
  return sent;
}

/**
 * Deletes advance drafts older than DRAFT_RETENTION_DAYS. A draft never had an invoice, tracker row
 * or anything the customer sees; its installments and checkout attempts go with it (cascade).
 */
export async function cleanUpDrafts(deps: AppDeps, now: Date = new Date()): Promise<number> {
  const before = new Date(now.getTime() - deps.config.DRAFT_RETENTION_DAYS * DAY_MS);
  const gone = await deps.db
    .delete(orders)
    .where(
      and(
        eq(orders.state, 'awaiting_advance'),
        lt(orders.createdAt, before),
        sql`not exists (select 1 from invoices i where i.order_id = ${orders.id})`,
      ),
    )
    .returning({ id: orders.id });
  return gone.length;
}
