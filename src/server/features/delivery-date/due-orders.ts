import type { OverviewResponse } from '../../../contract/admin-overview.ts';
import { daysLeft } from '../../../domain/delivery-date.ts';
import { DELIVERY_STAGE } from '../../../domain/tracker.ts';
import type { Database } from '../../db/client.ts';

/** The overview lists orders due within this many days. */
export const DUE_SOON_DAYS = 7;

/**
 * Orders not yet delivered whose due date is past (overdue, most overdue first) or within
 * DUE_SOON_DAYS (soonest first). Today is the UTC day of `now`.
 */
export async function dueOrders(database: Database, now: Date): Promise<Pick<OverviewResponse, 'ordersDueSoon' | 'ordersOverdue'>> {
  const today = now.toISOString().slice(0, 10);
  const rows = await database.query<{ public_id: string; email: string; name: string | null; due_date: string }>(
    `select o.public_id, u.email, u.name, o.due_date::text as due_date
       from orders o
       join users u on u.id = o.user_id
      where o.due_date is not null and o.due_date <= $1::date + ${DUE_SOON_DAYS}
        and o.state not in ('awaiting_advance', 'cancelled')
        and not exists (select 1 from order_stages s where s.order_id = o.id and s.stage = ${DELIVERY_STAGE})
      order by o.due_date, o.public_id`,
    [today],
  );
  const all = rows.map((r) => ({
    orderId: r.public_id,
    customerEmail: r.email,
    customerName: r.name,
    dueDate: r.due_date,
    daysLeft: daysLeft(r.due_date, now),
  }));
  return { ordersDueSoon: all.filter((o) => o.daysLeft >= 0), ordersOverdue: all.filter((o) => o.daysLeft < 0) };
}
