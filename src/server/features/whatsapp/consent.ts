import { sql } from 'drizzle-orm';
import type { WhatsAppStatus } from '../../../contract/whatsapp.ts';
import type { AppDeps } from '../../deps.ts';
import type { Db, Tx } from '../../db/client.ts';
import { badRequest } from '../../lib/app-error.ts';
import { whatsappConfigured } from '../../integrations/whatsapp/cloud-api.ts';
import { sqlRows } from '../../lib/sql-rows.ts';

// Consent to WhatsApp notices (docs/decisions/345-whatsapp-notices-and-consent.md). Append-only
// records: each opt-in and opt-out keeps the exact wording the person saw, the number, who, and when
// (migrations/1110_whatsapp_and_chat_console.sql). The latest record of a person decides.

/** The profile's number as WhatsApp addresses it: country code and number, digits only. */
export function whatsappNumber(user: { phoneCode: string | null; phoneNumber: string | null }): string | null {
  const code = (user.phoneCode ?? '').replace(/\D/g, '');
  const number = (user.phoneNumber ?? '').replace(/\D/g, '');
  if (!code || !number) return null;
  const digits = `${code}${number}`;
  return /^[0-9]{6,20}$/.test(digits) ? digits : null;
}

const display = (digits: string) => `+${digits}`;

/** What the dashboard shows beside the switch, and what an opt-in records word for word. */
export const optInWording = (brand: string, digits: string) =>
  `Send me WhatsApp messages from ${brand} at ${display(digits)} about my orders: payments, stages completed, designs to review, ` +
  `payments due, my site being down and replies from the team. I can turn this off here or reply STOP at any time.`;
export const optOutWording = (brand: string, digits: string) => `Stop WhatsApp messages from ${brand} to ${display(digits)}.`;

export interface ConsentRow {
  opted_in: boolean;
  phone: string;
  wording: string;
  created_at: Date | string;
}

export async function latestConsent(db: Db | Tx, userId: string): Promise<ConsentRow | null> {
  const res = await db.execute(
    sql`select opted_in, phone, wording, created_at from whatsapp_consents where user_id = ${userId} order by created_at desc, id desc limit 1`,
  );
  return sqlRows<ConsentRow>(res)[0] ?? null;
}

/** Opted in, and for the number now on the profile: a changed number needs a new opt-in. */
export async function consentedNumber(
  db: Db | Tx,
  user: { id: string; phoneCode: string | null; phoneNumber: string | null },
): Promise<string | null> {
  const current = whatsappNumber(user);
  const latest = await latestConsent(db, user.id);
  return current && latest?.opted_in && latest.phone === current ? current : null;
}

type Person = { id: string; phoneCode: string | null; phoneNumber: string | null };

export async function whatsappStatusOf(deps: AppDeps, user: Person): Promise<WhatsAppStatus> {
  const digits = whatsappNumber(user);
  const latest = await latestConsent(deps.db, user.id);
  const optedIn = Boolean(digits && latest?.opted_in && latest.phone === digits);
  return {
    optedIn,
    phone: digits ? display(digits) : null,
    at: latest ? new Date(latest.created_at).toISOString() : null,
    wording: optedIn ? latest!.wording : optInWording(deps.config.BRAND_NAME, digits ?? '…'),
    available: whatsappConfigured(deps.config),
  };
}

async function record(db: Db | Tx, userId: string, optedIn: boolean, phone: string, wording: string, source: 'dashboard' | 'stop') {
  await db.execute(sql`insert into whatsapp_consents (user_id, opted_in, phone, wording, source)
    values (${userId}, ${optedIn}, ${phone}, ${wording}, ${source})`);
}

export async function optIn(deps: AppDeps, user: Person): Promise<WhatsAppStatus> {
  const digits = whatsappNumber(user);
  if (!digits) throw badRequest('Add your phone number to your profile first.');
  await record(deps.db, user.id, true, digits, optInWording(deps.config.BRAND_NAME, digits), 'dashboard');
  return whatsappStatusOf(deps, user);
}

/** Turning off is recorded even when already off: the person's click is the record. */
export async function optOut(deps: AppDeps, user: Person): Promise<WhatsAppStatus> {
  const latest = await latestConsent(deps.db, user.id);
  const digits = latest?.phone ?? whatsappNumber(user);
  if (digits) await record(deps.db, user.id, false, digits, optOutWording(deps.config.BRAND_NAME, digits), 'dashboard');
  return whatsappStatusOf(deps, user);
}

/** A "STOP" from a number: everyone opted in at that number is opted out, the message recorded as the wording. */
export async function optOutByReply(db: Db | Tx, phone: string, text: string): Promise<number> {
  const res = await db.execute(sql`
    insert into whatsapp_consents (user_id, opted_in, phone, wording, source)
    select l.user_id, false, ${phone}, ${`Replied on WhatsApp: ${text.slice(0, 200)}`}, 'stop'
      from (select distinct on (user_id) user_id, opted_in, phone from whatsapp_consents
            where user_id in (select user_id from whatsapp_consents where phone = ${phone})
            order by user_id, created_at desc, id desc) l
     where l.opted_in and l.phone = ${phone}
    returning user_id`);
  return sqlRows(res).length;
}
