import { and, desc, eq, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { CashbackEntry, CashbackListResponse, CashbackReferrer } from '../../../contract/admin-cashback.ts';
import type { Db } from '../../db/client.ts';
import { cashbackPayouts } from '../../db/schema/admin.ts';
import { cashback, orders } from '../../db/schema/orders.ts';
import { users } from '../../db/schema/platform.ts';
import { conflict, notFound } from '../../lib/app-error.ts';
import { recordAudit } from '../../lib/audit-log.ts';

type State = CashbackEntry['state'];
const iso = (d: Date | null) => (d ? d.toISOString() : null);
const referrer = alias(users, 'referrer');
const buyer = alias(users, 'buyer');

function selectEntries(db: Db) {
  return db
    .select({ c: cashback, orderId: orders.publicId, buyerEmail: buyer.email, ref: referrer, payout: cashbackPayouts.reference })
    .from(cashback)
    .innerJoin(orders, eq(orders.id, cashback.orderId))
    .innerJoin(buyer, eq(buyer.id, orders.userId))
    .innerJoin(referrer, eq(referrer.id, cashback.referrerUserId))
    .leftJoin(cashbackPayouts, eq(cashbackPayouts.cashbackId, cashback.id));
}
type EntryRow = Awaited<ReturnType<ReturnType<typeof selectEntries>['execute']>>[number];

const toEntry = (r: EntryRow): CashbackEntry => ({
  id: r.c.id,
  orderId: r.orderId,
  buyerEmail: r.buyerEmail,
  amount: Number(r.c.amount),
  currency: r.c.currency,
  state: r.c.state,
  createdAt: r.c.createdAt.toISOString(),
  earnedAt: iso(r.c.earnedAt),
  paidAt: iso(r.c.paidAt),
  payoutReference: r.payout,
});

function sumBy(entries: CashbackEntry[], state: State) {
  const m = new Map<string, number>();
  for (const e of entries) if (e.state === state) m.set(e.currency, (m.get(e.currency) ?? 0) + e.amount);
  return [...m].map(([currency, amount]) => ({ currency, amount }));
}

/** The ledger grouped per referrer, referrers with money owed first. */
export async function listCashback(db: Db, state?: State): Promise<CashbackListResponse> {
  const rows = await selectEntries(db)
    .where(state ? eq(cashback.state, state) : undefined)
    .orderBy(desc(cashback.createdAt));
  const byReferrer = new Map<string, CashbackReferrer>();
  for (const r of rows) {
    let g = byReferrer.get(r.ref.id);
    if (!g) {
      g = { userId: r.ref.id, email: r.ref.email, name: r.ref.name, pending: [], earned: [], paid: [], entries: [] };
      byReferrer.set(r.ref.id, g);
    }
    g.entries.push(toEntry(r));
  }
  const referrers = [...byReferrer.values()].map((g) => ({
    ...g,
    pending: sumBy(g.entries, 'pending'),
    earned: sumBy(g.entries, 'earned'),
    paid: sumBy(g.entries, 'paid'),
  }));
  referrers.sort((a, b) => Number(b.earned.length > 0) - Number(a.earned.length > 0));
  return { referrers };
}

/** Earned → paid, with the reference of the transfer. Pending cashback is not owed yet. */
export async function markCashbackPaid(db: Db, actorUserId: string, id: string, reference: string): Promise<CashbackEntry> {
  return db.transaction(async (tx) => {
    const [row] = await tx.select().from(cashback).where(eq(cashback.id, id)).for('update');
    if (!row) throw notFound('No such cashback entry.');
    if (row.state === 'paid') throw conflict('This cashback is already paid.');
    if (row.state !== 'earned') throw conflict('This cashback is not earned yet: the referred order is not fully paid.');
    await tx
      .update(cashback)
      .set({ state: 'paid', paidAt: sql`now()` })
      .where(and(eq(cashback.id, id), eq(cashback.state, 'earned')));
    await tx.insert(cashbackPayouts).values({ cashbackId: id, reference, paidBy: actorUserId });
    await recordAudit(tx, {
      actorUserId,
      action: 'cashback.pay',
      entity: 'cashback',
      entityId: id,
      before: { state: row.state },
      after: { state: 'paid', payoutReference: reference, amount: Number(row.amount), currency: row.currency },
    });
    const [entry] = await selectEntries(tx).where(eq(cashback.id, id));
    return toEntry(entry!);
  });
}
