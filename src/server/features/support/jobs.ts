import { and, asc, eq, inArray, isNull, lt, lte, or, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Tx } from '../../db/client.ts';
import { SUPPORT_AUTO_CLOSE_DAYS, SUPPORT_OFFER_DAYS_BEFORE_END } from '../../../contract/support.ts';
import { DELIVERY_STAGE } from '../../../domain/tracker.ts';
import type { AppDeps } from '../../deps.ts';
import { orders, orderStages } from '../../db/schema/orders.ts';
import { mailOutbox, users } from '../../db/schema/platform.ts';
import { supportOffers, supportRequests } from '../../db/schema/support.ts';
import { renderEmail } from '../mail/render-email.ts';
import { maintenanceOffer } from './plan-offer.ts';
import { monthlyPriceLabel } from '../../../domain/maintenance-plan.ts';
import { supportWindow } from './support-window.ts';
import { guardRow, notParked } from '../../lib/pass-rows.ts';
import { formatDate } from '../../../domain/when.ts';
import { mailTimeZone } from '../mail/mail-time.ts';

// The support feature's part of the job pass (jobs/run-jobs.ts; every job takes the clock as a
// parameter): resolved requests close themselves after SUPPORT_AUTO_CLOSE_DAYS, and 30 days before
// support ends the customer gets one e-mail offering the maintenance plan (decision 170); a request
// waiting past SUPPORT_FIRST_RESPONSE_HOURS is announced once per wait (docs/decisions/350-support-overdue-push.md).

const DAY_MS = 86_400_000;
export const PLAN_OFFER_TEMPLATE = 'support-plan-offer';

/** The next request of a row pass (`where`, oldest `order` first), locked and skipped by the other instances. */
async function claimRequest(tx: Tx, where: SQL | undefined, order: AnyPgColumn) {
  const [due] = await tx
    .select({ request: supportRequests, orderPublicId: orders.publicId, customerEmail: users.email })
    .from(supportRequests)
    .innerJoin(orders, eq(orders.id, supportRequests.orderId))
    .innerJoin(users, eq(users.id, orders.userId))
    .where(where)
    .orderBy(asc(order))
    .limit(1)
    .for('update', { of: supportRequests, skipLocked: true });
  return due;
}

/**
 * Closes every request resolved at least SUPPORT_AUTO_CLOSE_DAYS before `now` and not reopened.
 * Each request is claimed with FOR UPDATE SKIP LOCKED in its own transaction, so instances share the
 * work and one that cannot close is parked (lib/pass-rows.ts) without holding up the others; each
 * close is published (the customer's open page hears of it live).
 */
export async function closeResolvedRequests(deps: AppDeps, now: Date = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - SUPPORT_AUTO_CLOSE_DAYS * DAY_MS);
  let closed = 0;
  for (;;) {
    const outcome = await guardRow(deps, 'support-closing', now, (claim) =>
      deps.events.transaction(async (tx) => {
        const due = await claimRequest(
          tx,
          and(
            eq(supportRequests.state, 'resolved'),
            lte(supportRequests.resolvedAt, cutoff),
            notParked('support-closing', supportRequests.id, now),
          ),
          supportRequests.resolvedAt,
        );
        if (!due) return false;
        const { request, orderPublicId, customerEmail } = due;
        claim(request.id);
        const [after] = await tx
          .update(supportRequests)
          .set({ state: 'closed', resolvedAt: null, closedAt: now })
          .where(eq(supportRequests.id, request.id))
          .returning();
        await deps.events.publish(tx, 'support.request', {
          orderId: request.orderId,
          orderPublicId,
          customerEmail,
          requestId: request.id,
          title: request.title,
          category: request.category,
          state: 'closed',
          from: 'resolved',
          by: 'job',
          createdAt: after!.createdAt,
          lastMessageAt: after!.lastMessageAt,
          at: now,
        });
        return true;
      }),
    );
    if (outcome === false) break;
    if (outcome === true) closed++;
  }
  return closed;
}

/**
 * Mails the plan offer to every delivered order whose included support ends within
 * SUPPORT_OFFER_DAYS_BEFORE_END days of `now` (and has not ended), once per order: the
 * `support_offers` row is claimed with the order's key in the same transaction as the mail enters
 * the outbox, so a second instance racing for it finds the row and sends nothing. An order a paid
 * plan covers at `now` is skipped (not claimed: if the plan stops before the end, the offer still
 * goes); a plan whose paid period is over does not count.
 */
export async function sendPlanOffers(deps: AppDeps, now: Date = new Date()): Promise<number> {
  const days = deps.config.SUPPORT_DAYS;
  const end = sql`${orderStages.completedAt} + make_interval(days => ${days})`;
  const candidates = await deps.db
    .select({ orderId: orders.id, publicId: orders.publicId, email: users.email, name: users.name })
    .from(orders)
    .innerJoin(orderStages, and(eq(orderStages.orderId, orders.id), eq(orderStages.stage, DELIVERY_STAGE)))
    .innerJoin(users, eq(users.id, orders.userId))
    .where(
      and(
        eq(orders.state, 'delivered'),
        sql`${end} - make_interval(days => ${SUPPORT_OFFER_DAYS_BEFORE_END}) <= ${now.toISOString()}::timestamptz`,
        sql`${end} > ${now.toISOString()}::timestamptz`,
        sql`not exists (select 1 from ${supportOffers} where ${supportOffers.orderId} = ${orders.id} and ${supportOffers.kind} = 'plan_offer')`,
        notParked('plan-offers', orders.id, now),
      ),
    )
    .orderBy(asc(orderStages.completedAt))
    .limit(500);
  let sent = 0;
  for (const c of candidates) {
    const mailed = await guardRow(deps, 'plan-offers', now, (claim) =>
      deps.db.transaction(async (tx) => {
        claim(c.orderId);
        const window = await supportWindow(tx, deps.queries.supportExtension, days, c.orderId, now);
        // A plan paying for today makes the customer a subscriber already: no offer (not claimed).
        if (!window.includedUntil || !window.covered || (window.planCoveredUntil && window.planCoveredUntil > now)) return false;
        const [claimed] = await tx
          .insert(supportOffers)
          .values({ orderId: c.orderId, kind: 'plan_offer', supportUntil: window.includedUntil, sentAt: now })
          .onConflictDoNothing()
          .returning({ orderId: supportOffers.orderId });
        if (!claimed) return false;
        const offer = await maintenanceOffer(deps, tx, c.orderId);
        const date = formatDate(window.includedUntil, mailTimeZone(deps.config));
        const mail = renderEmail(deps.config.BRAND_NAME, {
          subject: `Your website's support ends on ${date}`,
          heading: 'Keep your website looked after',
          paragraphs: [
            `Hi ${c.name ?? 'there'}, the support included with your website (order ${c.publicId}) ends on ${date}.`,
            `Our maintenance plan keeps it covered month by month for ${monthlyPriceLabel(offer)}: fixes, small changes and ` +
              `answers, as now. You can cancel at the end of any month.`,
            `Subscribe before ${date} and the plan starts that day: nothing is charged until your included support ends.`,
          ],
          rows: [
            ['Order', c.publicId],
            ['Support until', date],
            ['Maintenance plan', monthlyPriceLabel(offer)],
          ],
          action: { label: 'See the plan', url: `${deps.config.publicUrl}/status/${c.publicId}` },
        });
        await tx.insert(mailOutbox).values({
          toAddress: c.email.toLowerCase(),
          template: PLAN_OFFER_TEMPLATE,
          subject: mail.subject,
          textBody: mail.text,
          htmlBody: mail.html,
        });
        return true;
      }),
    );
    if (mailed === true) sent++;
  }
  if (sent > 0) void deps.mailer.drain().catch((err) => deps.log.error({ err }, 'mail worker'));
  return sent;
}

/**
 * Announces each request that has waited longer than SUPPORT_FIRST_RESPONSE_HOURS for the agency's
 * answer: `support.overdue`, once per wait (a later customer message starts a new wait, announced
 * again). One request per transaction, claimed with SKIP LOCKED and parked when it throws.
 */
export async function announceOverdueRequests(deps: AppDeps, now: Date = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - deps.config.SUPPORT_FIRST_RESPONSE_HOURS * 3_600_000);
  let announced = 0;
  for (;;) {
    const outcome = await guardRow(deps, 'support-overdue', now, (claim) =>
      deps.events.transaction(async (tx) => {
        const due = await claimRequest(
          tx,
          and(
            inArray(supportRequests.state, ['open', 'in_progress']),
            lte(supportRequests.waitingSince, cutoff),
            or(isNull(supportRequests.overdueAnnouncedAt), lt(supportRequests.overdueAnnouncedAt, supportRequests.waitingSince)),
            notParked('support-overdue', supportRequests.id, now),
          ),
          supportRequests.waitingSince,
        );
        if (!due) return false;
        const { request, orderPublicId, customerEmail } = due;
        claim(request.id);
        await tx.update(supportRequests).set({ overdueAnnouncedAt: now }).where(eq(supportRequests.id, request.id));
        await deps.events.publish(tx, 'support.overdue', {
          orderId: request.orderId,
          orderPublicId,
          customerEmail,
          requestId: request.id,
          title: request.title,
          waitingSince: request.waitingSince!,
          at: now,
        });
        return true;
      }),
    );
    if (outcome === false) return announced;
    if (outcome === true) announced++;
  }
}
