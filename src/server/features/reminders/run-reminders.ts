import { and, asc, eq, gt, lte, notExists, sql } from 'drizzle-orm';
import { formatMoney } from '../../../domain/money.ts';
import type { AppDeps } from '../../deps.ts';
import { installments, orders } from '../../db/schema/orders.ts';
import { mailOutbox, users } from '../../db/schema/platform.ts';
import { paymentReminders, reminderPauses } from '../../db/schema/reminders.ts';
import { renderEmail, type RenderedEmail } from '../mail/render-email.ts';
import { ownerRecipients } from '../mail/notify-owners.ts';
import { displayCurrency, moneyContext } from '../../lib/money-context.ts';
import { balanceOf } from '../ledger/post.ts';
import type { Tx } from '../../db/client.ts';
import { guardRow, notParked, PARKED } from '../../lib/pass-rows.ts';

const BATCH = 50;

/** Queues a mail in the caller's transaction: it exists exactly when the job is marked sent. */
async function enqueueInTx(tx: Tx, to: string, template: string, mail: RenderedEmail) {
  await tx
    .insert(mailOutbox)
    .values({ toAddress: to.toLowerCase(), template, subject: mail.subject, textBody: mail.text, htmlBody: mail.html });
}

/**
 * Runs every reminder job due at `now` (the clock is a parameter so tests can move it). Each job
 * is claimed with FOR UPDATE SKIP LOCKED in its own transaction; the e-mail is written to the
 * outbox and the job marked in that transaction — so several instances never send one job twice,
 * and a process killed mid-run leaves the job pending (nothing sent, nothing lost). A job that throws
 * is parked with a backoff and the next one goes on (lib/pass-rows.ts).
 */
export async function runDueReminders(deps: AppDeps, now: Date = new Date()): Promise<{ sent: number; cancelled: number }> {
  let sent = 0;
  let cancelled = 0;
  for (let i = 0; i < BATCH; i++) {
    // An events transaction: a customer's reminder publishes `payment.due` (pushes, docs/decisions/343-web-push.md).
    const outcome = await guardRow(deps, 'reminders', now, (claim) =>
      deps.events.transaction(async (tx) => {
        const [job] = await tx
          .select()
          .from(paymentReminders)
          .where(
            and(
              eq(paymentReminders.state, 'pending'),
              lte(paymentReminders.dueAt, now),
              notParked('reminders', paymentReminders.id, now),
              notExists(
                tx
                  .select({ x: sql`1` })
                  .from(reminderPauses)
                  .where(eq(reminderPauses.orderId, paymentReminders.orderId)),
              ),
            ),
          )
          .orderBy(asc(paymentReminders.dueAt), asc(paymentReminders.step))
          .limit(1)
          .for('update', { skipLocked: true });
        if (!job) return 'none' as const;
        claim(job.id);
        // FOR SHARE on the remaining installment: a payment settling right now (FOR UPDATE) either
        // committed before — we see it paid and send nothing — or waits until this job is done.
        const [row] = await tx
          .select({ order: orders, remaining: installments, email: users.email, name: users.name })
          .from(orders)
          .innerJoin(installments, and(eq(installments.orderId, orders.id), eq(installments.kind, 'remaining')))
          .innerJoin(users, eq(users.id, orders.userId))
          .where(eq(orders.id, job.orderId))
          .for('share', { of: installments })
          .limit(1);
        const close = (state: 'cancelled' | 'skipped', reason: string) =>
          tx.update(paymentReminders).set({ state, reason }).where(eq(paymentReminders.id, job.id));
        if (!row || row.remaining.state === 'paid') {
          await close('cancelled', 'paid');
          return 'cancelled' as const;
        }
        // After a pause, several steps may be due at once: only the latest customer mail goes out.
        if (job.kind !== 'founder') {
          const [later] = await tx
            .select({ id: paymentReminders.id })
            .from(paymentReminders)
            .where(
              and(
                eq(paymentReminders.orderId, job.orderId),
                eq(paymentReminders.state, 'pending'),
                eq(paymentReminders.kind, 'reminder'),
                gt(paymentReminders.step, job.step),
                lte(paymentReminders.dueAt, now),
              ),
            )
            .limit(1);
          if (later) {
            await close('skipped', 'superseded');
            return 'cancelled' as const;
          }
        }
        const c = displayCurrency(moneyContext(deps), row.order.currency);
        // What the order's account says is still owed (docs/decisions/320-order-ledger.md).
        const amount = formatMoney(await balanceOf(tx, job.orderId), c);
        const payUrl = `${deps.config.publicUrl}/status/${row.order.publicId}`;
        if (job.kind === 'founder') {
          for (const to of ownerRecipients(deps.config)) {
            await enqueueInTx(
              tx,
              to,
              'reminder-founder',
              renderEmail(deps.config.BRAND_NAME, {
                subject: `Still unpaid after ${job.step - 1} reminders: order ${row.order.publicId}`,
                heading: 'The remaining payment is still open',
                paragraphs: [
                  `The customer was reminded ${job.step - 1} times after Launch Readiness and has not paid yet. Time for a personal call?`,
                ],
                rows: [
                  ['Order', row.order.publicId],
                  ['Customer', row.email],
                  ['Remaining', amount],
                ],
                action: { label: 'Open the order', url: `${deps.config.publicUrl}/admin/orders/${row.order.publicId}` },
              }),
            );
          }
        } else {
          await enqueueInTx(
            tx,
            row.email,
            job.kind === 'due' ? 'remaining-due' : 'remaining-reminder',
            renderEmail(deps.config.BRAND_NAME, {
              subject:
                job.kind === 'due'
                  ? `Your website is ready to launch — ${amount} remaining`
                  : `Reminder: ${amount} remaining for order ${row.order.publicId}`,
              heading: job.kind === 'due' ? 'Launch readiness — done!' : 'A friendly reminder',
              paragraphs: [
                job.kind === 'due'
                  ? 'Your website has passed launch readiness. The remaining amount is now due; as soon as it is paid we deliver the link.'
                  : 'The remaining amount of your website order is still open. Pay it from your order page and we deliver the link.',
              ],
              rows: [
                ['Order', row.order.publicId],
                ['Remaining', amount],
              ],
              action: { label: `Pay ${amount}`, url: payUrl },
            }),
          );
        }
        if (job.kind !== 'founder')
          await deps.events.publish(tx, 'payment.due', {
            orderId: job.orderId,
            orderPublicId: row.order.publicId,
            customerEmail: row.email,
            reminderId: job.id,
            amountText: amount,
            at: now,
          });
        await tx.update(paymentReminders).set({ state: 'sent', sentAt: now }).where(eq(paymentReminders.id, job.id));
        return 'sent' as const;
      }),
    );
    if (outcome === 'none') break;
    if (outcome === PARKED) continue;
    if (outcome === 'sent') sent++;
    else cancelled++;
  }
  if (sent > 0) void deps.mailer.drain().catch((err) => deps.log.error({ err }, 'mail worker'));
  return { sent, cancelled };
}
