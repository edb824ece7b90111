import { medianFirstResponse } from '../chat/chat-ratings.ts';
import { FIRST_RESPONSE_SQL } from '../chat/conversations.ts';
import { sitesDown } from '../site-care/health.ts';
import { count, eq } from 'drizzle-orm';
import { OVERVIEW_DAYS, type OverviewResponse } from '../../../contract/admin-overview.ts';
import { STAGE_COUNT } from '../../../domain/tracker.ts';
import type { Database } from '../../db/client.ts';
import { users } from '../../db/schema/platform.ts';
import { chatSummary } from '../chat/admin-summary.ts';
import { leadCounts } from '../leads/lead-stats.ts';
import { refundsNeeded } from '../payments/refunds.ts';
import { failedRefunds } from '../payments/refund-flow.ts';
import { dueOrders } from '../delivery-date/due-orders.ts';
import { maintenanceOverviewOf } from '../maintenance/plan-queries.ts';
import { countPastResponseTarget } from '../support/queue.ts';
import { moneyMoved } from '../ledger/revenue.ts';

/** The last `n` UTC dates ending today, oldest first. */
export function lastDays(now: Date, n = OVERVIEW_DAYS): string[] {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return Array.from({ length: n }, (_, i) => new Date(today - (n - 1 - i) * 86_400_000).toISOString().slice(0, 10));
}

/** Spreads `{day, value}` rows over the window, 0 for missing days. */
export function perDay(days: string[], rows: { day: string; value: number }[]): number[] {
  const byDay = new Map(rows.map((r) => [r.day, Number(r.value)]));
  return days.map((d) => byDay.get(d) ?? 0);
}

async function changesWaiting(database: Database): Promise<OverviewResponse['changesWaiting']> {
  const rows = await database.query<{ public_id: string; id: string; title: string; state: 'requested' | 'quoted'; since: Date | string }>(
    `select o.public_id, c.id, c.title, c.state, coalesce(c.quoted_at, c.created_at) as since
       from order_changes c join orders o on o.id = c.order_id
      where c.state in ('requested', 'quoted') and o.state <> 'cancelled' order by since limit 50`,
  );
  return rows.map((r) => ({
    orderId: r.public_id,
    changeId: r.id,
    title: r.title,
    state: r.state,
    since: new Date(r.since).toISOString(),
  }));
}

async function ordersByStage(database: Database): Promise<OverviewResponse['ordersByStage']> {
  const rows = await database.query<{ stage: number; n: number }>(
    `select coalesce((select max(s.stage) from order_stages s where s.order_id = o.id), 0)::int as stage, count(*)::int as n
       from orders o where o.state not in ('awaiting_advance', 'cancelled') group by 1`,
  );
  return Array.from({ length: STAGE_COUNT }, (_, i) => ({
    stage: i + 1,
    count: Number(rows.find((r) => Number(r.stage) === i + 1)?.n ?? 0),
  }));
}

async function cashbackOwed(database: Database): Promise<OverviewResponse['cashbackOwed']> {
  const rows = await database.query<{ currency: string; amount: number }>(
    `select currency, sum(amount)::float8 as amount from cashback where state = 'earned' group by currency order by currency`,
  );
  return rows.map((r) => ({ currency: r.currency, amountMinor: Number(r.amount) }));
}

/** The featured promotion and whether it has ended: a fresh install features the spec's expired offer. */
async function featuredOffer(database: Database, now: Date): Promise<OverviewResponse['featuredOffer']> {
  const [row] = await database.query<{ id: string; code: string; valid_until: Date | string | null }>(
    `select c.id, c.code, c.valid_until from site_settings s join coupons c on c.code = upper(s.value->>'couponCode')
      where s.key = 'featured_promotion' and c.active and c.kind = 'promo'`,
  );
  if (!row) return null;
  const endsAt = row.valid_until ? new Date(row.valid_until) : null;
  return { couponId: row.id, code: row.code, endsAt: endsAt ? endsAt.toISOString() : null, hasEnded: endsAt !== null && endsAt <= now };
}

/** Jobs, mails and scheduled passes' rows that failed for good (their last error is in the row). */
async function failedWork(database: Database): Promise<OverviewResponse['failedWork']> {
  const [row] = await database.query<{ jobs: number; mails: number }>(
    `select (select count(*) from jobs where state = 'failed')::int as jobs, (select count(*) from mail_outbox where state = 'failed')::int as mails`,
  );
  return { jobs: Number(row?.jobs ?? 0), mails: Number(row?.mails ?? 0) };
}

export async function getOverview(
  database: Database,
  now = new Date(),
  supportResponseHours = 24,
): Promise<Omit<OverviewResponse, 'stepUp' | 'tax'>> {
  const days = lastDays(now);
  const [moved, stages, owed, chats, leads, [customers], refunds, offer, due, supportPastTarget, failed, refundsFailed] = await Promise.all(
    [
      moneyMoved(database, days),
      ordersByStage(database),
      cashbackOwed(database),
      chatSummary(database),
      leadCounts(database, days),
      database.db.select({ n: count() }).from(users).where(eq(users.role, 'customer')),
      refundsNeeded(database),
      featuredOffer(database, now),
      dueOrders(database, now),
      countPastResponseTarget(database.db, supportResponseHours, now),
      failedWork(database),
      failedRefunds(database),
    ],
  );
  const down = await sitesDown(database);
  return {
    generatedAt: now.toISOString(),
    days,
    // Money kept, from the order accounts (docs/decisions/320-order-ledger.md): received less refunded, live money only.
    revenue: moved.perCurrency.map((c) => ({ currency: c.currency, perDay: c.perDay, total: c.net })),
    changeRevenue: moved.perCurrency.filter((c) => c.changes !== 0).map((c) => ({ currency: c.currency, total: c.changes })),
    moneyMoved: moved,
    changesWaiting: await changesWaiting(database),
    ordersByStage: stages,
    leadsPerDay: perDay(days, leads.leadsPerDay),
    contactsPerDay: perDay(days, leads.contactsPerDay),
    newLeads: leads.newLeads,
    newContacts: leads.newContacts,
    openChats: chats.openChats,
    unreadChats: chats.unreadChats,
    chatFirstResponseMedianSeconds: await medianFirstResponse(database, FIRST_RESPONSE_SQL, now),
    cashbackOwed: owed,
    customers: Number(customers?.n ?? 0),
    refundsNeeded: refunds,
    refundsFailed,
    featuredOffer: offer,
    ...due,
    maintenance: await maintenanceOverviewOf(database.db),
    supportPastTarget,
    failedWork: failed,
    sitesDown: down,
  };
}
