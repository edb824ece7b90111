import { count, eq } from 'drizzle-orm';
import { OVERVIEW_DAYS, type OverviewResponse } from '../../../contract/admin-overview.ts';
import type { Db } from '../../db/client.ts';
import { users } from '../../db/schema/platform.ts';

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

export async function getOverview(db: Db, now = new Date()): Promise<OverviewResponse> {
  const days = lastDays(now);
  const [customers] = await db.select({ n: count() }).from(users).where(eq(users.role, 'customer'));
  return {
    generatedAt: now.toISOString(),
    days,
    revenue: [],
    ordersByStage: Array.from({ length: 15 }, (_, i) => ({ stage: i + 1, count: 0 })),
    leadsPerDay: perDay(days, []),
    contactsPerDay: perDay(days, []),
    newLeads: 0,
    newContacts: 0,
    openChats: 0,
    unreadChats: 0,
    cashbackOwed: [],
    customers: Number(customers?.n ?? 0),
  };
}
