import { and, asc, desc, eq, inArray, isNotNull, or, sql } from 'drizzle-orm';
import { readPreferences } from '../notification-preferences/preferences.ts';
import { pushSubscriptions } from '../../db/schema/notifications.ts';
import { chatSideOf } from '../../../contract/chat.ts';
import { deviceName } from '../../../domain/device-name.ts';
import type { AppDeps } from '../../deps.ts';
import { passkeys } from '../../db/schema/account-security.ts';
import { chatConversations, chatMessages } from '../../db/schema/chat.ts';
import { coupons } from '../../db/schema/coupons.ts';
import { billingDetails, invoices } from '../../db/schema/invoices.ts';
import { cashback, couponRedemptions, orders } from '../../db/schema/orders.ts';
import { sessions } from '../../db/schema/platform.ts';
import { contactMessages, leads } from '../../db/schema/leads-and-contacts.ts';
import type { SessionUser } from '../auth/sessions.ts';
import { orderRecords } from './order-records.ts';
import { sqlRows } from '../../lib/sql-rows.ts';

// Everything the app holds about one person, for "download all my data" (the
// DPDP Act's and the GDPR's right of access; decision 193). The person is always the signed-in
// user: there is no id to pass, so nobody can ask for someone else's data. What is theirs: rows
// with their user id, and the leads, contact messages and chats left under their e-mail before (or
// without) signing in. Never secrets: no token or code hashes, no passkey keys, no IP addresses of
// sessions (a session keeps only its city).

const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);

export const EXPORT_FORMAT = 'webagency-account-export';
export const EXPORT_VERSION = 1;

export async function collectAccountData(deps: AppDeps, user: SessionUser, currentSessionId: string) {
  const db = deps.db;
  const email = user.email.toLowerCase();
  const [
    sessionRows,
    passkeyRows,
    billing,
    invoiceRows,
    referralCode,
    referred,
    cashbackRows,
    redemptions,
    chats,
    leadRows,
    contactRows,
    orderPart,
  ] = await Promise.all([
    db.select().from(sessions).where(eq(sessions.userId, user.id)).orderBy(desc(sessions.createdAt)),
    db.select().from(passkeys).where(eq(passkeys.userId, user.id)).orderBy(asc(passkeys.createdAt)),
    db.select().from(billingDetails).where(eq(billingDetails.userId, user.id)).limit(1),
    db
      .select()
      .from(invoices)
      .where(and(isNotNull(invoices.userId), eq(invoices.userId, user.id)))
      .orderBy(asc(invoices.issuedAt), asc(invoices.sequence)),
    db
      .select({ code: coupons.code, percent: coupons.percent, createdAt: coupons.createdAt })
      .from(coupons)
      .where(and(eq(coupons.ownerUserId, user.id), eq(coupons.kind, 'referral')))
      .limit(1),
    // Orders placed with the person's referral code: when and how far, never who placed them.
    db
      .select({ createdAt: orders.createdAt, state: orders.state })
      .from(orders)
      .where(eq(orders.referrerUserId, user.id))
      .orderBy(asc(orders.createdAt)),
    db.select().from(cashback).where(eq(cashback.referrerUserId, user.id)).orderBy(asc(cashback.createdAt)),
    db
      .select({
        code: coupons.code,
        discount: couponRedemptions.discount,
        currency: couponRedemptions.currency,
        orderId: orders.publicId,
        createdAt: couponRedemptions.createdAt,
      })
      .from(couponRedemptions)
      .innerJoin(coupons, eq(coupons.id, couponRedemptions.couponId))
      .innerJoin(orders, eq(orders.id, couponRedemptions.orderId))
      .where(eq(couponRedemptions.userId, user.id))
      .orderBy(asc(couponRedemptions.createdAt)),
    db
      .select()
      .from(chatConversations)
      .where(or(eq(chatConversations.userId, user.id), eq(sql`lower(${chatConversations.contactEmail})`, email)))
      .orderBy(asc(chatConversations.createdAt)),
    db
      .select()
      .from(leads)
      .where(eq(sql`lower(${leads.email})`, email))
      .orderBy(asc(leads.createdAt)),
    db
      .select()
      .from(contactMessages)
      .where(or(eq(contactMessages.userId, user.id), eq(sql`lower(${contactMessages.email})`, email)))
      .orderBy(asc(contactMessages.createdAt)),
    orderRecords(db, user.id, deps.config.publicUrl),
  ]);
  const chatIds = chats.map((c) => c.id);
  const chatLines = chatIds.length
    ? await db.select().from(chatMessages).where(inArray(chatMessages.conversationId, chatIds)).orderBy(asc(chatMessages.seq))
    : [];
  // WhatsApp consent records and chat ratings (docs/decisions/345-whatsapp-notices-and-consent.md, 347).
  const consents = sqlRows<{ opted_in: boolean; phone: string; wording: string; source: string; created_at: Date | string }>(
    await db.execute(
      sql`select opted_in, phone, wording, source, created_at from whatsapp_consents where user_id = ${user.id} order by created_at`,
    ),
  );
  const chatRatings = chatIds.length
    ? sqlRows<{ chat_id: string; score: number; comment: string | null; created_at: Date | string }>(
        await db.execute(
          sql`select chat_id, score, comment, created_at from chat_ratings where chat_id in (${sql.join(
            chatIds.map((id) => sql`${id}`),
            sql`, `,
          )})`,
        ),
      )
    : [];
  // Notification choices and push devices (docs/decisions/342-notification-preferences.md, 343); a
  // device's endpoint and keys are the push service's address for it, not the person's data: left out.
  const preferences = await readPreferences(db, user.id);
  const devices = await db
    .select({ deviceName: pushSubscriptions.deviceName, createdAt: pushSubscriptions.createdAt, lastSentAt: pushSubscriptions.lastSentAt })
    .from(pushSubscriptions)
    .where(eq(pushSubscriptions.userId, user.id))
    .orderBy(asc(pushSubscriptions.createdAt));
  const ratingOf = (chatId: string) => {
    const r = chatRatings.find((x) => x.chat_id === chatId);
    return r ? { score: r.score, comment: r.comment, createdAt: iso(new Date(r.created_at)) } : null;
  };

  const data = {
    format: EXPORT_FORMAT,
    version: EXPORT_VERSION,
    exportedAt: new Date().toISOString(),
    from: deps.config.BRAND_NAME,
    profile: {
      name: user.name,
      email: user.email,
      phone_code: user.phoneCode,
      phone_number: user.phoneNumber,
      address: user.address,
      role: user.role,
      createdAt: iso(user.createdAt),
      updatedAt: iso(user.updatedAt),
      firstVisit: {
        utmSource: user.firstUtmSource,
        utmMedium: user.firstUtmMedium,
        utmCampaign: user.firstUtmCampaign,
        referrerHost: user.firstReferrerHost,
      },
    },
    billingDetails: billing[0]
      ? { billingName: billing[0].billingName, billingAddress: billing[0].billingAddress, taxId: billing[0].taxId }
      : null,
    sessions: sessionRows.map((s) => ({
      device: deviceName(s.userAgent),
      userAgent: s.userAgent,
      city: s.city,
      createdAt: iso(s.createdAt),
      lastSeenAt: iso(s.lastSeenAt),
      expiresAt: iso(s.expiresAt),
      signedOutAt: iso(s.revokedAt),
      current: s.id === currentSessionId,
    })),
    passkeys: passkeyRows.map((p) => ({ name: p.name, createdAt: iso(p.createdAt), lastUsedAt: iso(p.lastUsedAt) })),
    orders: orderPart.orders,
    invoices: invoiceRows.map((i) => ({
      number: i.number,
      series: i.series,
      amount: i.amount,
      currency: i.currency,
      issuedAt: iso(i.issuedAt),
      buyer: i.snapshot.buyer,
    })),
    couponsUsed: redemptions.map((r) => ({ ...r, createdAt: iso(r.createdAt) })),
    referral: {
      code: referralCode[0]?.code ?? null,
      percent: referralCode[0]?.percent ?? null,
      ordersReferred: referred.map((r) => ({ createdAt: iso(r.createdAt), state: r.state })),
      cashback: cashbackRows.map((c) => ({
        amount: c.amount,
        currency: c.currency,
        state: c.state,
        earnedAt: iso(c.earnedAt),
        paidAt: iso(c.paidAt),
        createdAt: iso(c.createdAt),
      })),
    },
    chats: chats.map((c) => ({
      state: c.state,
      contactEmail: c.contactEmail,
      createdAt: iso(c.createdAt),
      closedAt: iso(c.closedAt),
      messages: chatLines
        .filter((m) => m.conversationId === c.id)
        .map((m) => ({ from: chatSideOf(m.sender) === 'visitor' ? 'you' : 'agency', text: m.body, createdAt: iso(m.createdAt) })),
      rating: ratingOf(c.id),
    })),
    notifications: {
      preferences,
      pushDevices: devices.map((d) => ({ deviceName: d.deviceName, createdAt: iso(d.createdAt), lastSentAt: iso(d.lastSentAt) })),
    },
    whatsappConsents: consents.map((r) => ({
      optedIn: r.opted_in,
      phone: r.phone,
      wording: r.wording,
      source: r.source,
      createdAt: iso(new Date(r.created_at)),
    })),
    leads: leadRows.map((l) => ({ kind: l.kind, email: l.email, phone: l.phone, page: l.page, createdAt: iso(l.createdAt) })),
    contactMessages: contactRows.map((m) => ({
      name: m.name,
      email: m.email,
      phone_code: m.phoneCode,
      phone_number: m.phoneNumber,
      address: m.address,
      message: m.message,
      createdAt: iso(m.createdAt),
    })),
  };
  return { data, invoices: invoiceRows.map((i) => ({ id: i.id, number: i.number })), files: orderPart.files };
}

export type AccountData = Awaited<ReturnType<typeof collectAccountData>>['data'];
