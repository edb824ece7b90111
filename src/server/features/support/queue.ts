import { and, asc, count, eq, inArray, lte, ne, sql } from 'drizzle-orm';
import type { AdminSupportItem, SupportState } from '../../../contract/support.ts';
import type { AppDeps } from '../../deps.ts';
import type { Db } from '../../db/client.ts';
import { orders } from '../../db/schema/orders.ts';
import { users } from '../../db/schema/platform.ts';
import { supportRequests } from '../../db/schema/support.ts';
import { toSummary } from './requests.ts';
import { supportWindow } from './support-window.ts';

// The founder's support queue: requests by state, the customer who has waited
// longest first, with the time since their last message and a flag once the wait passes
// SUPPORT_FIRST_RESPONSE_HOURS. "Waiting" is `waiting_since` (decision 170): set by the request,
// a customer message or a reopen, cleared by the agency's reply or by resolving/closing.

const HOUR_MS = 3_600_000;
/** States in which the agency owes an answer; resolved and closed requests are never flagged. */
const ACTIVE: SupportState[] = ['open', 'in_progress'];

const waitingTooLong = (hours: number, now: Date) =>
  and(inArray(supportRequests.state, ACTIVE), lte(supportRequests.waitingSince, new Date(now.getTime() - hours * HOUR_MS)));

/** How many requests wait longer than the first-response target at `now` (the overview's count). */
export async function countPastResponseTarget(db: Db, hours: number, now: Date = new Date()): Promise<number> {
  const [row] = await db.select({ n: count() }).from(supportRequests).where(waitingTooLong(hours, now));
  return Number(row?.n ?? 0);
}

const queueColumns = { request: supportRequests, orderPublicId: orders.publicId, customerEmail: users.email, customerName: users.name };
type QueueRow = { request: typeof supportRequests.$inferSelect; orderPublicId: string; customerEmail: string; customerName: string | null };

async function toItem(deps: AppDeps, row: QueueRow, now: Date): Promise<AdminSupportItem> {
  const r = row.request;
  const hours = deps.config.SUPPORT_FIRST_RESPONSE_HOURS;
  const window = await supportWindow(deps.db, deps.queries.supportExtension, deps.config.SUPPORT_DAYS, r.orderId, now);
  return {
    ...toSummary(r),
    orderId: row.orderPublicId,
    customerEmail: row.customerEmail,
    customerName: row.customerName,
    lastCustomerMessageAt: r.lastCustomerMessageAt.toISOString(),
    waitingSince: r.waitingSince?.toISOString() ?? null,
    secondsSinceCustomerMessage: Math.max(0, Math.floor((now.getTime() - r.lastCustomerMessageAt.getTime()) / 1000)),
    pastResponseTarget: ACTIVE.includes(r.state) && r.waitingSince !== null && now.getTime() - r.waitingSince.getTime() >= hours * HOUR_MS,
    supportUntil: window.supportUntil?.toISOString() ?? null,
  };
}

/** One page of the queue: a state, or every request not closed; the longest wait first, then the oldest customer message. */
export async function supportQueue(deps: AppDeps, query: { state?: SupportState; page: number; pageSize: number }, now: Date = new Date()) {
  const where = query.state ? eq(supportRequests.state, query.state) : ne(supportRequests.state, 'closed');
  const [total] = await deps.db.select({ n: count() }).from(supportRequests).where(where);
  const rows = await deps.db
    .select(queueColumns)
    .from(supportRequests)
    .innerJoin(orders, eq(orders.id, supportRequests.orderId))
    .innerJoin(users, eq(users.id, orders.userId))
    .where(where)
    .orderBy(sql`${supportRequests.waitingSince} asc nulls last`, asc(supportRequests.lastCustomerMessageAt), asc(supportRequests.id))
    .limit(query.pageSize)
    .offset((query.page - 1) * query.pageSize);
  const items: AdminSupportItem[] = [];
  for (const row of rows) items.push(await toItem(deps, row, now));
  return {
    responseTargetHours: deps.config.SUPPORT_FIRST_RESPONSE_HOURS,
    items,
    pageInfo: { page: query.page, pageSize: query.pageSize, total: Number(total?.n ?? 0) },
  };
}

/** One request as a queue item (the founder's request page). */
export async function queueItem(deps: AppDeps, requestId: string, now: Date = new Date()): Promise<AdminSupportItem> {
  const [row] = await deps.db
    .select(queueColumns)
    .from(supportRequests)
    .innerJoin(orders, eq(orders.id, supportRequests.orderId))
    .innerJoin(users, eq(users.id, orders.userId))
    .where(eq(supportRequests.id, requestId))
    .limit(1);
  if (!row) throw new Error('queueItem: the request was just read');
  return toItem(deps, row, now);
}
