import { and, asc, eq, inArray, isNull, lte, notExists, or, sql } from 'drizzle-orm';
import { alias, type AnyPgColumn } from 'drizzle-orm/pg-core';
import type { AppDeps } from '../../deps.ts';
import type { Tx } from '../../db/client.ts';
import { notices, type MessageSide, type NoticeKind } from '../../db/schema/order-messages.ts';
import { orders } from '../../db/schema/orders.ts';
import { mailOutbox, users } from '../../db/schema/platform.ts';
import { ownerRecipients } from '../mail/notify-owners.ts';
import { renderEmail } from '../mail/render-email.ts';
import { guardRow, notParked, PARKED } from '../../lib/pass-rows.ts';
import type { NoticeKind as PreferenceKind } from '../../../contract/notification-preferences.ts';
import { noticeAllowed } from '../notification-preferences/allowed.ts';

// The notice job (decision 155): per order and recipient side, ONE e-mail once the
// oldest notice the recipient has neither read in the app nor been mailed is
// ORDER_NOTIFY_DELAY_SECONDS old, listing everything new since. Part of the job pass
// (jobs/run-jobs.ts); exactly once across instances through row locks, as the reminders are.

const BATCH = 50;
export const NOTICE_TEMPLATE = 'order-notices';

type Waiting = { id: string; kind: NoticeKind; summary: string };

/** What the e-mail lists: messages and comments counted, rounds and decisions by name. Never a text. */
export function noticeLines(list: Waiting[]): string[] {
  const count = (kind: NoticeKind) => list.filter((n) => n.kind === kind).length;
  const lines: string[] = [];
  const messages = count('message');
  if (messages) lines.push(messages === 1 ? '1 new message' : `${messages} new messages`);
  for (const n of list)
    if (
      n.kind === 'stage_completed' ||
      n.kind === 'review_opened' ||
      n.kind === 'review_decided' ||
      n.kind === 'support_reply' ||
      n.kind === 'brief_submitted' ||
      n.kind === 'change_requested' ||
      n.kind === 'change_quoted'
    )
      lines.push(n.summary);
  const files = count('customer_file');
  if (files) lines.push(files === 1 ? '1 new file from the customer' : `${files} new files from the customer`);
  const comments = count('review_comment');
  if (comments) lines.push(comments === 1 ? '1 new comment on a design review' : `${comments} new comments on design reviews`);
  return lines;
}

/**
 * Sends every batch that is due at `now` (the clock is a parameter: tests move it). Each batch is
 * one transaction: the group's oldest waiting notice is claimed with FOR UPDATE SKIP LOCKED (and
 * only the oldest qualifies, so another instance skips the whole group instead of claiming a newer
 * notice of it), the rest of the group is locked, the mail goes into the outbox and the notices are
 * marked sent — all or nothing. A notice read in the app meanwhile no longer qualifies.
 */
export async function sendDueNotices(deps: AppDeps, now: Date = new Date()): Promise<{ mails: number; notices: number }> {
  const cutoff = new Date(now.getTime() - deps.config.ORDER_NOTIFY_DELAY_SECONDS * 1000);
  const older = alias(notices, 'older');
  const waiting = (t: { readAt: AnyPgColumn; sentAt: AnyPgColumn }) => and(isNull(t.readAt), isNull(t.sentAt));
  let mails = 0;
  let sentNotices = 0;
  for (let i = 0; i < BATCH; i++) {
    const outcome = await guardRow(deps, 'notices', now, (claim) =>
      deps.db.transaction(async (tx) => {
        const [head] = await tx
          .select({ orderId: notices.orderId, recipient: notices.recipient })
          .from(notices)
          .where(
            and(
              waiting(notices),
              lte(notices.createdAt, cutoff),
              notParked('notices', sql`${notices.orderId}::text || ':' || ${notices.recipient}`, now),
              notExists(
                tx
                  .select({ x: sql`1` })
                  .from(older)
                  .where(
                    and(
                      eq(older.orderId, notices.orderId),
                      eq(older.recipient, notices.recipient),
                      waiting(older),
                      or(
                        sql`${older.createdAt} < ${notices.createdAt}`,
                        and(eq(older.createdAt, notices.createdAt), sql`${older.id} < ${notices.id}`),
                      ),
                    ),
                  ),
              ),
            ),
          )
          .orderBy(asc(notices.createdAt))
          .limit(1)
          .for('update', { of: notices, skipLocked: true });
        if (!head) return null;
        // A group (order and side) is one row of this pass: a mail that cannot be written parks the group.
        claim(`${head.orderId}:${head.recipient}`);
        const group = await tx
          .select({ id: notices.id, kind: notices.kind, summary: notices.summary })
          .from(notices)
          .where(and(eq(notices.orderId, head.orderId), eq(notices.recipient, head.recipient), waiting(notices)))
          .orderBy(asc(notices.createdAt), asc(notices.id))
          .for('update');
        if (group.length === 0) return 0;
        await mailGroup(deps, tx, head.orderId, head.recipient, group, now);
        await tx
          .update(notices)
          .set({ sentAt: now })
          .where(
            inArray(
              notices.id,
              group.map((n) => n.id),
            ),
          );
        return group.length;
      }),
    );
    if (outcome === null) break;
    if (outcome === PARKED) continue;
    if (outcome > 0) {
      mails++;
      sentNotices += outcome;
    }
  }
  if (mails > 0) void deps.mailer.drain().catch((err) => deps.log.error({ err }, 'mail worker'));
  return { mails, notices: sentNotices };
}

/**
 * The e-mail of one batch, in the outbox within the batch's transaction. It goes only to the
 * order's people — the customer, or the agency's admin addresses — and says what is new with a
 * link, never what a message or comment says (a mailbox is not the app's access check).
 */
async function mailGroup(deps: AppDeps, tx: Tx, orderId: string, recipient: MessageSide, group: Waiting[], now: Date) {
  const [order] = await tx
    .select({ publicId: orders.publicId, email: users.email, userId: users.id })
    .from(orders)
    .innerJoin(users, eq(users.id, orders.userId))
    .where(eq(orders.id, orderId));
  if (!order) return;
  const toCustomer = recipient === 'customer';
  const to = toCustomer ? [order.email] : ownerRecipients(deps.config);
  for (const address of to) {
    // Each person's e-mail choices (docs/decisions/342-notification-preferences.md): what they turned off is left out.
    const wanted = await wantedBy(tx, toCustomer ? order.userId : null, address, recipient, group, now);
    if (wanted.length === 0) continue;
    const lines = noticeLines(wanted);
    const mail = renderEmail(deps.config.BRAND_NAME, {
      subject: toCustomer
        ? `News on your order ${order.publicId}`
        : `Order ${order.publicId}: ${lines[0]}${lines.length > 1 ? ' and more' : ''}`,
      heading: toCustomer ? 'There is something new on your order' : `New on order ${order.publicId}`,
      paragraphs: [
        ...lines.map((l) => `• ${l}`),
        toCustomer ? 'Open your order to read and reply.' : 'Open the order in the back office to read and reply.',
      ],
      rows: [['Order', order.publicId], ...(toCustomer ? [] : ([['Customer', order.email]] as [string, string][]))],
      action: {
        label: 'Open the order',
        url: toCustomer ? `${deps.config.publicUrl}/status/${order.publicId}` : `${deps.config.publicUrl}/admin/orders/${order.publicId}`,
      },
    });
    await tx.insert(mailOutbox).values({
      toAddress: address.toLowerCase(),
      template: NOTICE_TEMPLATE,
      subject: mail.subject,
      textBody: mail.text,
      htmlBody: mail.html,
    });
  }
}

/** The kind of notice a person chooses about (contract/notification-preferences.ts) for a batched notice. */
export function preferenceKind(kind: NoticeKind, recipient: MessageSide): PreferenceKind {
  switch (kind) {
    case 'review_opened':
    case 'review_decided':
    case 'stage_completed':
    case 'change_quoted':
      return kind;
    default:
      // Messages, comments, support answers, a brief, files, a change asked for: the other side wrote.
      return recipient === 'customer' ? 'agency_reply' : 'customer_message';
  }
}

/** The notices of `group` that the person at `address` (their account, when they have one) wants by e-mail. */
async function wantedBy(
  tx: Tx,
  userId: string | null,
  address: string,
  recipient: MessageSide,
  group: Waiting[],
  now: Date,
): Promise<Waiting[]> {
  const id = userId ?? (await tx.select({ id: users.id }).from(users).where(eq(users.email, address.toLowerCase())))[0]?.id;
  // An address without an account (BRAND_EMAIL) has made no choice: it gets everything.
  if (!id) return group;
  const wanted: Waiting[] = [];
  const allowed = new Map<PreferenceKind, boolean>();
  for (const n of group) {
    const kind = preferenceKind(n.kind, recipient);
    if (!allowed.has(kind)) allowed.set(kind, await noticeAllowed(tx, { userId: id, kind, channel: 'email', at: now }));
    if (allowed.get(kind)) wanted.push(n);
  }
  return wanted;
}
