import { asc, eq, inArray } from 'drizzle-orm';
import { orderPriceFigures, orderSupply, priceLines } from '../../../domain/price-lines.ts';
import type { AdminOrderRow, OrderDetailResponse, OrderListQuery, OrderListResponse } from '../../../contract/admin-orders.ts';
import { sourceLabel } from '../../../contract/funnel.ts';
import { STAGE_COUNT } from '../../../domain/tracker.ts';
import { daysLeft } from '../../../domain/delivery-date.ts';
import { orderBriefs } from '../../db/schema/order-briefs-and-terms.ts';
import { termsAcceptanceOf } from '../terms/terms-acceptance.ts';
import { adminMaintenanceOf } from '../maintenance/plan-queries.ts';
import type { Database } from '../../db/client.ts';
import { adminOrderNotes } from '../../db/schema/admin.ts';
import { orders, paymentAttempts } from '../../db/schema/orders.ts';
import type { AppDeps } from '../../deps.ts';
import { users } from '../../db/schema/platform.ts';
import { notFound } from '../../lib/app-error.ts';
import { loadOrder } from '../tracker/load-order.ts';
import { unreadMessagesOf, unreadMessagesSql } from '../order-messages/unread.ts';
import { ledgerTotalsSql, totalsOf } from '../ledger/lines.ts';
import { linesOf } from '../ledger/post.ts';

const iso = (d: Date | string | null | undefined) => (d ? new Date(d).toISOString() : null);
const likeEscaped = (q: string) => `%${q.replace(/[\\%_]/g, '\\$&')}%`;

interface OrderRow {
  public_id: string;
  created_at: Date;
  user_id: string;
  email: string;
  name: string | null;
  currency: string;
  total: number;
  balance_due: number;
  state: string;
  a_amount: number;
  a_state: 'due' | 'pending' | 'paid';
  a_paid_at: Date | null;
  r_amount: number;
  r_state: 'due' | 'pending' | 'paid';
  r_paid_at: Date | null;
  completed: number;
  first_utm_source: string | null;
  first_utm_medium: string | null;
  first_utm_campaign: string | null;
  first_referrer_host: string | null;
  brief_pending: boolean;
  ui_approved_at: Date | string | null;
  due_date: string | null;
  unread: number;
}

// Drafts (advance never paid) are not orders yet, as on the customer's side (loadOrder).
const FILTERED = `
  with o as (
    select o.*, coalesce((select max(s.stage) from order_stages s where s.order_id = o.id), 0)::int as completed
      from orders o
     where o.state <> 'awaiting_advance'
  )
  select o.public_id, o.created_at, o.user_id, u.email, u.name, o.currency, lt.charged as total, lt.balance_due, o.state,
         a.amount::float8 as a_amount, a.state as a_state, a.paid_at as a_paid_at,
         r.amount::float8 as r_amount, r.state as r_state, r.paid_at as r_paid_at, o.completed,
         o.first_utm_source, o.first_utm_medium, o.first_utm_campaign, o.first_referrer_host,
         (o.state <> 'delivered' and not exists (select 1 from order_briefs b where b.order_id = o.id and b.submitted_at is not null)) as brief_pending,
         o.ui_approved_at, o.due_date::text as due_date, ${unreadMessagesSql('agency', 'o.id')} as unread
    from o
    join users u on u.id = o.user_id
    left join installments a on a.order_id = o.id and a.kind = 'advance'
    left join installments r on r.order_id = o.id and r.kind = 'remaining'
    cross join lateral ${ledgerTotalsSql('o.id')} lt
   where ($1::text is null or o.public_id ilike $1 or u.email ilike $1 or u.name ilike $1)
     and ($2::int is null or o.completed = $2)`;

/** Days left to the due date, while the website is not delivered yet. */
const daysLeftOf = (dueDate: string | null, completed: number, now: Date) =>
  dueDate && completed < STAGE_COUNT ? daysLeft(dueDate, now) : null;

const toRow = (r: OrderRow, now: Date): AdminOrderRow => ({
  id: r.public_id,
  createdAt: new Date(r.created_at).toISOString(),
  customerId: r.user_id,
  customerEmail: r.email,
  customerName: r.name,
  currency: r.currency,
  total: Number(r.total),
  balanceDue: Number(r.balance_due),
  advance: { amount: Number(r.a_amount ?? 0), state: r.a_state ?? 'due', paidAt: iso(r.a_paid_at) },
  remaining: { amount: Number(r.r_amount ?? 0), state: r.r_state ?? 'due', paidAt: iso(r.r_paid_at) },
  completedStages: Number(r.completed),
  state: r.state,
  source: sourceLabel({
    firstUtmSource: r.first_utm_source,
    firstUtmMedium: r.first_utm_medium,
    firstUtmCampaign: r.first_utm_campaign,
    firstReferrerHost: r.first_referrer_host,
  }),
  briefPending: Boolean(r.brief_pending),
  uiApprovedAt: iso(r.ui_approved_at),
  dueDate: r.due_date,
  daysLeft: daysLeftOf(r.due_date, Number(r.completed), now),
  unreadMessages: Number(r.unread ?? 0),
});

export async function listOrders(database: Database, q: OrderListQuery, now = new Date()): Promise<OrderListResponse> {
  const params = [q.q ? likeEscaped(q.q) : null, q.stage ?? null];
  const [rows, totals] = await Promise.all([
    database.query<OrderRow>(`${FILTERED} order by o.created_at desc, o.id limit $3 offset $4`, [
      ...params,
      q.pageSize,
      (q.page - 1) * q.pageSize,
    ]),
    database.query<{ n: number }>(`select count(*)::int as n from (${FILTERED}) x`, params),
  ]);
  return { items: rows.map((r) => toRow(r, now)), pageInfo: { page: q.page, pageSize: q.pageSize, total: Number(totals[0]?.n ?? 0) } };
}

/** The back office opened the order (its page): `order.seen` for the agency, published alone. */
export async function markOrderSeenByAgency(deps: AppDeps, publicId: string, at = new Date()) {
  const [order] = await deps.db.select({ id: orders.id }).from(orders).where(eq(orders.publicId, publicId)).limit(1);
  if (order) await deps.events.publishAlone('order.seen', { orderId: order.id, side: 'agency', what: 'order', at });
}

export async function getOrder(database: Database, publicId: string, now = new Date()): Promise<OrderDetailResponse> {
  const db = database.db;
  const loaded = await loadOrder(db, publicId);
  if (!loaded) throw notFound('Order not found.');
  const { order, advance, remaining, stages } = loaded;
  const [[user], attempts, [note], [brief], termsAcceptance, account] = await Promise.all([
    db.select().from(users).where(eq(users.id, order.userId)),
    db
      .select()
      .from(paymentAttempts)
      .where(inArray(paymentAttempts.installmentId, [advance.id, remaining.id]))
      .orderBy(asc(paymentAttempts.createdAt)),
    db.select().from(adminOrderNotes).where(eq(adminOrderNotes.orderId, order.id)),
    db.select({ submittedAt: orderBriefs.submittedAt }).from(orderBriefs).where(eq(orderBriefs.orderId, order.id)),
    termsAcceptanceOf(db, order.id),
    linesOf(db as never, order.id).then(totalsOf),
  ]);
  const completed = stages.reduce((m, s) => Math.max(m, s.stage), 0);
  const part = (i: typeof advance) => ({
    kind: i.kind,
    amount: Number(i.amount),
    currency: i.currency,
    state: i.state,
    paidAt: iso(i.paidAt),
    providerPaymentId: i.providerPaymentId,
    attempts: attempts
      .filter((a) => a.installmentId === i.id)
      .map((a) => ({
        provider: a.provider,
        providerOrderId: a.providerOrderId,
        providerPaymentId: a.providerPaymentId,
        amount: Number(a.amount),
        currency: a.currency,
        state: a.state,
        createdAt: a.createdAt.toISOString(),
        paidAt: iso(a.paidAt),
        refundState: a.refundState,
        refundReference: a.refundReference,
        refundedAt: iso(a.refundedAt),
      })),
  });
  return {
    order: {
      id: order.publicId,
      createdAt: order.createdAt.toISOString(),
      customerId: order.userId,
      customerEmail: user?.email ?? loaded.email,
      customerName: user?.name ?? null,
      currency: order.currency,
      total: account.charged,
      balanceDue: account.balanceDue,
      advance: { amount: Number(advance.amount), state: advance.state, paidAt: iso(advance.paidAt) },
      remaining: { amount: Number(remaining.amount), state: remaining.state, paidAt: iso(remaining.paidAt) },
      completedStages: completed,
      state: order.state,
      source: sourceLabel(order),
      listPrice: Number(order.listPrice),
      price: Number(order.price),
      discountPercent: order.discountPercent,
      discount: Number(order.discount),
      fee: Number(order.fee),
      couponCode: order.couponCode,
      lines: priceLines(orderPriceFigures({ ...order, tax: order.tax ?? null }, orderSupply(order.publicId))),
      deliveryUrl: order.deliveryUrl,
      internalNote: note?.note ?? null,
      // Pending until it is sent, "UI Started" or not (docs/decisions/215-brief-lock.md); not after delivery.
      briefPending: !brief?.submittedAt && order.state !== 'delivered',
      uiApprovedAt: iso(order.uiApprovedAt),
      dueDate: order.dueDate ?? null,
      daysLeft: daysLeftOf(order.dueDate ?? null, completed, now),
      unreadMessages: await unreadMessagesOf(database, order.id, 'agency'),
    },
    customer: {
      id: order.userId,
      email: user?.email ?? loaded.email,
      name: user?.name ?? null,
      phoneCode: user?.phoneCode ?? null,
      phoneNumber: user?.phoneNumber ?? null,
    },
    installments: [part(advance), part(remaining)],
    stages: Array.from({ length: STAGE_COUNT }, (_, i) => {
      const s = stages.find((x) => x.stage === i + 1);
      return { stage: i + 1, completedAt: iso(s?.completedAt), note: s?.note ?? null };
    }),
    termsAcceptance,
    maintenance: await adminMaintenanceOf(db, order.id),
  };
}
