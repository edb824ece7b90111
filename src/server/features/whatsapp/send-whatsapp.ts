import { sql } from 'drizzle-orm';
import type { WhatsAppTemplate } from '../../../contract/whatsapp.ts';
import type { AppDeps } from '../../deps.ts';
import type { Db } from '../../db/client.ts';
import { sendTemplate, whatsappConfigured, WhatsAppSendError } from '../../integrations/whatsapp/cloud-api.ts';
import { consentedNumber } from './consent.ts';
import { sqlRows } from '../../lib/sql-rows.ts';

// The WhatsApp pass of the job pass (docs/decisions/345-whatsapp-notices-and-consent.md). Per order,
// at most ONE message per WHATSAPP_ORDER_GAP: the pending notices of an order wait
// ORDER_NOTIFY_DELAY_SECONDS after the oldest (as the e-mail batch does, decision 155), then the most
// important one is sent and the rest are marked `batched` into it. Consent and the settings are
// checked again at sending; the person's preferences and quiet hours through `noticeAllowed`.

export const WHATSAPP_ORDER_GAP_MS = 30 * 60 * 1000;
/** A notice the preferences hold back (quiet hours) waits at most this long, then is dropped. */
const HELD_BACK_MS = 12 * 3600 * 1000;
/** A claimed message with no answer from Meta after this long (the process died mid-send) is due again. */
const SEND_LEASE_MS = 5 * 60 * 1000;
const BATCH = 20;

/** Which notice of a batch is sent: the one that asks something of the customer first. */
const PRIORITY: WhatsAppTemplate[] = ['site_down', 'payment_due', 'payment_receipt', 'review_ready', 'support_reply', 'stage_update'];

/**
 * The person's preferences and quiet hours for one notice (features/notification-preferences/allowed.ts
 * answers it: `noticeAllowed(db, { userId, kind, channel, at })`). Injected, so this pass is wired to
 * it in one place (notice-allowed.ts).
 */
export type NoticeAllowed = (db: Db, q: { userId: string; kind: string; channel: 'whatsapp'; at: Date }) => Promise<boolean>;

type Pending = {
  id: string;
  user_id: string;
  template: WhatsAppTemplate;
  kind: string;
  params: string[];
  phone: string;
  created_at: Date | string;
};

export interface WhatsAppPassOutcome {
  sent: number;
  batched: number;
  skipped: number;
  failed: number;
}

export async function sendDueWhatsApp(deps: AppDeps, noticeAllowed: NoticeAllowed, now: Date = new Date()): Promise<WhatsAppPassOutcome> {
  const outcome: WhatsAppPassOutcome = { sent: 0, batched: 0, skipped: 0, failed: 0 };
  const { db } = deps;
  // A send that never heard back (the process died between the claim and Meta's answer) is due again.
  await db.execute(sql`update whatsapp_messages set state = 'pending', sent_at = null
     where state = 'accepted' and wa_message_id is null and sent_at < ${new Date(now.getTime() - SEND_LEASE_MS)}`);
  if (!whatsappConfigured(deps.config)) {
    const res = await db.execute(
      sql`update whatsapp_messages set state = 'skipped', error = 'WhatsApp is not configured' where state = 'pending' returning id`,
    );
    outcome.skipped += sqlRows(res).length;
    return outcome;
  }
  const waitedSince = new Date(now.getTime() - deps.config.ORDER_NOTIFY_DELAY_SECONDS * 1000);
  const lastSentBefore = new Date(now.getTime() - WHATSAPP_ORDER_GAP_MS);
  for (let i = 0; i < BATCH; i++) {
    // One order per transaction: its oldest pending notice claimed with SKIP LOCKED, only when it has
    // waited long enough and the order had no message in the last 30 minutes.
    const claimed = await db.transaction(async (tx) => {
      const head = await tx.execute(sql`
        select w.order_id, w.user_id from whatsapp_messages w
         where w.state = 'pending' and w.created_at <= ${waitedSince}
           and not exists (select 1 from whatsapp_messages s where s.order_id = w.order_id and s.sent_at > ${lastSentBefore})
         order by w.created_at limit 1 for update skip locked`);
      const [first] = sqlRows<{ order_id: string; user_id: string }>(head);
      if (!first) return null;
      const group = sqlRows<Pending>(
        await tx.execute(sql`select id, user_id, template, kind, params, phone, created_at from whatsapp_messages
           where order_id = ${first.order_id} and state = 'pending' order by created_at, id for update`),
      );
      const mark = async (ids: string[], state: string, fields: { error?: string; into?: string } = {}) => {
        if (ids.length === 0) return;
        await tx.execute(sql`update whatsapp_messages set state = ${state}, error = ${fields.error ?? null}, batched_into = ${fields.into ?? null}
           where id in (${sql.join(
             ids.map((id) => sql`${id}`),
             sql`, `,
           )})`);
      };
      // Consent and profile number now: a STOP or a changed number since the notice was written wins.
      const [user] = sqlRows<{ id: string; phone_code: string | null; phone_number: string | null }>(
        await tx.execute(sql`select id, phone_code, phone_number from users where id = ${first.user_id} and deleted_at is null`),
      );
      const phone = user ? await consentedNumber(tx, { id: user.id, phoneCode: user.phone_code, phoneNumber: user.phone_number }) : null;
      if (!phone) {
        await mark(
          group.map((g) => g.id),
          'skipped',
          { error: 'no consent' },
        );
        return { skipped: group.length };
      }
      // Preferences and quiet hours: held back waits (up to HELD_BACK_MS), switched off is dropped then too.
      const allowed: Pending[] = [];
      const stale: string[] = [];
      for (const g of group) {
        if (await noticeAllowed(tx, { userId: g.user_id, kind: g.kind, channel: 'whatsapp', at: now })) allowed.push(g);
        else if (new Date(g.created_at).getTime() < now.getTime() - HELD_BACK_MS) stale.push(g.id);
      }
      await mark(stale, 'skipped', { error: 'not allowed by preferences' });
      if (allowed.length === 0) return { skipped: stale.length };
      const chosen = [...allowed].sort(
        (a, b) => PRIORITY.indexOf(a.template) - PRIORITY.indexOf(b.template) || +new Date(b.created_at) - +new Date(a.created_at),
      )[0]!;
      const rest = allowed.filter((g) => g.id !== chosen.id).map((g) => g.id);
      await mark(rest, 'batched', { into: chosen.id });
      // Claimed: its sent_at holds the order's 30-minute slot while the call is made outside the transaction.
      await tx.execute(sql`update whatsapp_messages set state = 'accepted', phone = ${phone}, sent_at = ${now} where id = ${chosen.id}`);
      return { chosen: { ...chosen, phone }, batched: rest.length, skipped: stale.length };
    });
    if (claimed === null) break;
    outcome.skipped += claimed.skipped;
    if (!('chosen' in claimed) || !claimed.chosen) continue;
    outcome.batched += claimed.batched;
    const m = claimed.chosen;
    try {
      const waId = await sendTemplate(deps.config, m.phone, m.template, m.params);
      await db.execute(sql`update whatsapp_messages set wa_message_id = ${waId}, status_at = ${now} where id = ${m.id}`);
      outcome.sent++;
    } catch (err) {
      const e = err instanceof WhatsAppSendError ? err : new WhatsAppSendError((err as Error).message, true);
      deps.log.warn({ err: e.message, template: m.template }, 'whatsapp: send failed');
      if (e.retry)
        await db.execute(sql`update whatsapp_messages set state = 'pending', sent_at = null, error = ${e.message} where id = ${m.id}`);
      else {
        await db.execute(sql`update whatsapp_messages set state = 'failed', error = ${e.message}, status_at = ${now} where id = ${m.id}`);
        outcome.failed++;
      }
      // One failure ends this pass: Meta down is not retried twenty times in a row.
      if (e.retry) break;
    }
  }
  return outcome;
}

const STATUS_RANK: Record<string, number> = { accepted: 0, sent: 1, delivered: 2, read: 3, failed: 4 };

/** A status from Meta's webhook; never moves a message backwards (a late "sent" after "read"). */
export async function recordStatus(db: Db, waMessageId: string, status: string, at: Date, error?: string): Promise<boolean> {
  if (!(status in STATUS_RANK) || status === 'accepted') return false;
  const res = await db.execute(sql`
    update whatsapp_messages set state = ${status}, status_at = ${at}, error = coalesce(${error ?? null}, error)
     where wa_message_id = ${waMessageId}
       and (case state when 'accepted' then 0 when 'sent' then 1 when 'delivered' then 2 when 'read' then 3
                       when 'failed' then 4 else 5 end) < ${STATUS_RANK[status]!}
    returning id`);
  return sqlRows(res).length > 0;
}
