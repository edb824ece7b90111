import { createHash } from 'node:crypto';
import { and, eq, ne } from 'drizzle-orm';
import { fillTerms, termsCanonicalText, type TermsSection } from '../../../domain/terms.ts';
import { maintenanceTermsCanonicalText } from '../../../domain/maintenance-terms.ts';
import { termsVersionPath, type OrderTermsResponse, type TermsVersionResponse } from '../../../contract/terms.ts';
import type { Db, Tx } from '../../db/client.ts';
import { orderTermsAcceptances, termsVersions } from '../../db/schema/order-briefs-and-terms.ts';
import { orders } from '../../db/schema/orders.ts';
import { notFound } from '../../lib/app-error.ts';

// Terms accepted at checkout (decision 146): chargeback evidence that the customer
// ticked "I agree to the Terms and Conditions" before paying the advance, and to which wording.

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

/** The version of the Terms and Conditions on the site: 16 hex characters of the wording's sha-256. */
export const TERMS_VERSION = sha256(termsCanonicalText()).slice(0, 16);

/** The version of the maintenance plan's terms (docs/decisions/266-maintenance-terms-acceptance.md), made the same way. */
export const MAINTENANCE_TERMS_VERSION = sha256(maintenanceTermsCanonicalText()).slice(0, 16);

/** What a subscription records of the maintenance terms accepted: the same three facts as the checkout's. */
export function maintenanceTermsRecord(orderPublicId: string, at: Date, client: TermsClient | undefined) {
  const ua = client?.headers['user-agent'];
  return {
    termsVersion: MAINTENANCE_TERMS_VERSION,
    termsAcceptedAt: at,
    termsClientHash: client ? clientHash(orderPublicId, client.ip, (Array.isArray(ua) ? ua[0] : ua) ?? '') : null,
  };
}

/**
 * sha-256 of the order id, client address and user agent. The order id salts it, so one customer's
 * hashes cannot be linked across orders; anyone holding the three values (e.g. the address the
 * payment provider reports for the payment) can recompute it to show they match.
 */
export const clientHash = (orderPublicId: string, ip: string, userAgent: string) => sha256(`${orderPublicId}\n${ip}\n${userAgent}`);

export interface TermsClient {
  ip: string;
  headers: Record<string, string | string[] | undefined>;
}

/** Records the acceptance for a new order, in the transaction that creates it. */
export async function recordTermsAcceptance(
  tx: Tx,
  order: { id: string; publicId: string },
  at: Date,
  client: TermsClient | undefined,
): Promise<void> {
  const ua = client?.headers['user-agent'];
  // The wording of this version is kept with its first acceptance, so it can be read again after
  // the page changes (docs/decisions/272-accepted-terms-readable.md).
  await tx.insert(termsVersions).values({ version: TERMS_VERSION, wording: termsCanonicalText(), createdAt: at }).onConflictDoNothing();
  await tx.insert(orderTermsAcceptances).values({
    orderId: order.id,
    termsVersion: TERMS_VERSION,
    acceptedAt: at,
    // Without a request (an order created by a server-side script) there is no client to describe.
    clientHash: client ? clientHash(order.publicId, client.ip, (Array.isArray(ua) ? ua[0] : ua) ?? '') : null,
  });
}

export interface TermsAcceptance {
  version: string;
  acceptedAt: string;
  clientHash: string | null;
}

/** What the back office shows; null for orders placed before terms were recorded. */
export async function termsAcceptanceOf(db: Db, orderId: string): Promise<TermsAcceptance | null> {
  const [row] = await db.select().from(orderTermsAcceptances).where(eq(orderTermsAcceptances.orderId, orderId));
  return row ? { version: row.termsVersion, acceptedAt: row.acceptedAt.toISOString(), clientHash: row.clientHash } : null;
}

/**
 * The wording of a version, as it was accepted: from the stored copy, or the wording on the site now
 * when that is the version (an acceptance recorded before copies were kept). Brand and address are
 * filled from today's settings — the version covers the wording, not those (decision 146).
 */
export async function termsVersionText(db: Db, version: string, fill: { brand: string; email: string }): Promise<TermsVersionResponse> {
  const [row] = await db.select({ wording: termsVersions.wording }).from(termsVersions).where(eq(termsVersions.version, version));
  const wording = row?.wording ?? (version === TERMS_VERSION ? termsCanonicalText() : null);
  if (!wording) throw notFound('No such version of the terms.');
  const data = JSON.parse(wording) as { intro: string; sections: TermsSection[] };
  const f = (s: string) => fillTerms(s, fill);
  return {
    version,
    current: version === TERMS_VERSION,
    intro: f(data.intro),
    sections: data.sections.map((s) => ({
      title: f(s.title),
      body: s.body.map((p) => (typeof p === 'string' ? f(p) : { text: f(p.text), href: f(p.href) })),
    })),
  };
}

/** The customer's own order (past the checkout draft; anything else 404): which terms, and when. */
export async function orderTermsOf(db: Db, publicId: string, userId: string): Promise<OrderTermsResponse> {
  const [order] = await db
    .select({ id: orders.id })
    .from(orders)
    .where(and(eq(orders.publicId, publicId), eq(orders.userId, userId), ne(orders.state, 'awaiting_advance')))
    .limit(1);
  if (!order) throw notFound('Order not found.');
  const t = await termsAcceptanceOf(db, order.id);
  return { termsAccepted: t ? { version: t.version, acceptedAt: t.acceptedAt, url: termsVersionPath(t.version) } : null };
}
