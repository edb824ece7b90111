import { and, asc, desc, eq, inArray, or, sql } from 'drizzle-orm';
import type {
  CreateSupportRequestBody,
  PostSupportMessageBody,
  SupportMessage,
  SupportOverviewResponse,
  SupportRequest,
  SupportState,
} from '../../../contract/support.ts';
import type { AppDeps } from '../../deps.ts';
import type { Db, Tx } from '../../db/client.ts';
import { notices } from '../../db/schema/order-messages.ts';
import { orders } from '../../db/schema/orders.ts';
import { users } from '../../db/schema/platform.ts';
import { orderFiles } from '../../db/schema/order-files.ts';
import { supportMessageFiles, supportMessages, supportRequestFiles, supportRequests } from '../../db/schema/support.ts';
import { AppError, conflict, notFound } from '../../lib/app-error.ts';
import { recordAudit } from '../../lib/audit-log.ts';
import type { OrderRef, SupportRef } from '../../lib/domain-events.ts';
import { workspaceOrder, type ThreadViewer } from '../../lib/workspace-order.ts';
import { filesOfOrder } from '../order-files/order-files.ts';
import { maintenanceOffer, maintenanceOfferIn, type PlanOffer } from './plan-offer.ts';
import { planBuyerOf } from '../../lib/maintenance-price.ts';
import { monthlyPriceLabel } from '../../../domain/maintenance-plan.ts';
import type { OrderTax } from '../../../contract/pricing.ts';
import { extensionCoveredUntilSql, extensionPlanSql, supportWindow, windowOf, type SupportWindow } from './support-window.ts';
import { deliveredAtSql } from '../tracker/stage-sql.ts';
import { namedStatement } from '../../lib/named-statement.ts';
import { authorNameOf } from '../../../domain/author-name.ts';
import { authorNameOfUser } from '../../lib/name-of-user.ts';

// Support requests (decision 170): opened by the customer of a delivered order
// while support covers it, each with a thread and a state. Every change is one transaction that
// locks the request row and publishes `support.request` / `support.message`; notices for the other
// side and the live broadcast hang on those events (subscriptions.ts, socket.ts).

type RequestRow = typeof supportRequests.$inferSelect;
const iso = (d: Date | null) => (d ? d.toISOString() : null);

/**
 * The order whose support a viewer may use. A customer has only their own DELIVERED orders: any
 * other id (another customer's, undelivered, none) is the same 404, so an id tells nothing.
 */
export const supportOrder = (db: Db, publicId: string, viewer: ThreadViewer): Promise<OrderRef> =>
  workspaceOrder(db, publicId, viewer, { deliveredOnly: true });

async function filesOf(db: Db | Tx, requestIds: string[]): Promise<Map<string, string[]>> {
  const rows = requestIds.length
    ? await db
        .select({ requestId: supportRequestFiles.requestId, fileId: supportRequestFiles.fileId })
        .from(supportRequestFiles)
        .where(inArray(supportRequestFiles.requestId, requestIds))
        .orderBy(asc(supportRequestFiles.position))
    : [];
  const map = new Map<string, string[]>();
  for (const r of rows) map.set(r.requestId, [...(map.get(r.requestId) ?? []), r.fileId]);
  return map;
}

export const toSummary = (r: RequestRow) => ({
  id: r.id,
  title: r.title,
  category: r.category,
  state: r.state,
  createdAt: r.createdAt.toISOString(),
  lastMessageAt: r.lastMessageAt.toISOString(),
});

export async function toRequest(db: Db | Tx, r: RequestRow): Promise<SupportRequest> {
  const files = await filesOf(db, [r.id]);
  return {
    ...toSummary(r),
    description: r.description,
    fileIds: files.get(r.id) ?? [],
    resolvedAt: iso(r.resolvedAt),
    closedAt: iso(r.closedAt),
  };
}

/** GET …/support: the window, the plan (through the extension hook) and the order's requests, newest first. */
export async function supportOverview(deps: AppDeps, order: OrderRef, now = new Date()): Promise<Omit<SupportOverviewResponse, 'success'>> {
  const window = await supportWindow(deps.db, deps.queries.supportExtension, deps.config.SUPPORT_DAYS, order.orderId, now);
  const rows = await deps.db
    .select()
    .from(supportRequests)
    .where(eq(supportRequests.orderId, order.orderId))
    .orderBy(desc(supportRequests.createdAt));
  return overviewOf(deps, window, await maintenanceOffer(deps, deps.db, order.orderId), rows.map(toSummary), now);
}

// The customer's support page in ONE named statement (docs/decisions/291-signed-in-reads-one-statement.md):
// supportOrder's rule (their own delivered order), the delivery (tracker's stage-sql.ts), the
// registered extensions' plan and paid period as SQL (each value's one rule:
// docs/decisions/341-one-rule-per-derived-value.md), the currency of the plan offer, the requests and
// the order's version (`order_reads`, docs/decisions/317-order-reads-table.md).
function ownOverviewSql(planSql: string, coveredSql: string) {
  return `select o.currency, ${deliveredAtSql('o.id')} as delivered_at, ${planSql} as plan, ${coveredSql} as covered_until,
           b.country as billing_country, b.state_code as billing_state_code, b.gstin as billing_gstin, o.tax->'buyer' as order_buyer,
           (select coalesce(json_agg(json_build_object('id', r.id, 'title', r.title, 'category', r.category, 'state', r.state,
                                                       'createdAt', r.created_at, 'lastMessageAt', r.last_message_at) order by r.created_at desc), '[]'::json)
              from support_requests r where r.order_id = o.id) as requests,
           rd.version::text as version
      from orders o
      join users u on u.id = o.user_id
      join order_reads rd on rd.order_id = o.id
      left join billing_details b on b.user_id = o.user_id
     where o.public_id = $1 and o.user_id = $2 and o.state = 'delivered'`;
}

// The same order's version alone, under the same rule: what a kept support page is checked against.
const ownSupportVersionSql = `select rd.version::text as version
   from orders o join users u on u.id = o.user_id join order_reads rd on rd.order_id = o.id
  where o.public_id = $1 and o.user_id = $2 and o.state = 'delivered'`;

/** The version of the customer's own delivered order `publicId` (404 otherwise), or null when its page would not be kept (readOwnSupport's `version`). */
export async function ownSupportVersion(deps: AppDeps, publicId: string, viewer: ThreadViewer): Promise<string | null> {
  if (extensionPlanSql(deps.queries.supportExtension, 'o.id') === undefined) return null;
  const [row] = await deps.database.query<{ version: string }>(ownSupportVersionSql, [publicId, viewer.userId], 'own_support_version');
  if (!row) throw notFound('Order not found.');
  return row.version;
}

type Stamp = Date | string | null;
const dateOf = (v: Stamp) => (v === null ? null : v instanceof Date ? v : new Date(v));
interface PlanJson {
  state: string;
  currentPeriodEnd: string | null;
  cancelAtPeriodEnd: boolean;
  startsAt: string | null;
}
interface RequestJson {
  id: string;
  title: string;
  category: RequestRow['category'];
  state: RequestRow['state'];
  createdAt: string;
  lastMessageAt: string;
}

/**
 * GET …/support of the customer's own delivered order `publicId` (404 otherwise): supportOverview's
 * answer in one statement (an extension without SQL forms reads it the old way), with what a kept
 * copy needs (lib/versioned-answers.ts): the order's version, null
 * when the page was read outside the statement (no version covers it), and the first instant the
 * page reads differently with the same rows — the end of the included year (the offer's start) or of
 * support (`covered`), whichever comes first after `now`.
 */
export async function readOwnSupport(
  deps: AppDeps,
  publicId: string,
  viewer: ThreadViewer,
  now = new Date(),
): Promise<{ overview: Omit<SupportOverviewResponse, 'success'>; version: string | null; until: number }> {
  const planSql = extensionPlanSql(deps.queries.supportExtension, 'o.id');
  const coveredSql = extensionCoveredUntilSql(deps.queries.supportExtension, 'o.id');
  if (planSql === undefined || coveredSql === undefined)
    return {
      overview: await supportOverview(deps, await supportOrder(deps.db, publicId, viewer), now),
      version: null,
      until: now.getTime(),
    };
  const text = ownOverviewSql(planSql, coveredSql);
  const [row] = await deps.database.query<{
    currency: string;
    delivered_at: Stamp;
    plan: PlanJson | null;
    covered_until: Stamp;
    billing_country: string | null;
    billing_state_code: string | null;
    billing_gstin: string | null;
    order_buyer: OrderTax['buyer'] | null;
    requests: RequestJson[];
    version: string;
  }>(text, [publicId, viewer.userId], namedStatement('own_support', text));
  if (!row) throw notFound('Order not found.');
  const plan = row.plan && {
    state: row.plan.state,
    currentPeriodEnd: dateOf(row.plan.currentPeriodEnd),
    cancelAtPeriodEnd: row.plan.cancelAtPeriodEnd,
    startsAt: dateOf(row.plan.startsAt),
  };
  const window = windowOf(
    dateOf(row.delivered_at),
    deps.config.SUPPORT_DAYS,
    plan && { plan, coveredUntil: dateOf(row.covered_until) },
    now,
  );
  const overview = overviewOf(
    deps,
    window,
    maintenanceOfferIn(
      deps,
      row.currency,
      planBuyerOf(
        {
          billing: { country: row.billing_country, stateCode: row.billing_state_code, gstin: row.billing_gstin },
          orderBuyer: row.order_buyer,
        },
        row.currency,
      ),
    ),
    row.requests.map((r) => ({
      ...r,
      createdAt: new Date(r.createdAt).toISOString(),
      lastMessageAt: new Date(r.lastMessageAt).toISOString(),
    })),
    now,
  );
  const turns = [window.includedUntil, window.supportUntil].map((d) => d?.getTime() ?? Infinity).filter((t) => t > now.getTime());
  return { overview, version: row.version, until: Math.min(Infinity, ...turns) };
}

function overviewOf(
  deps: AppDeps,
  window: SupportWindow,
  offer: PlanOffer,
  requests: ReturnType<typeof toSummary>[],
  now: Date,
): Omit<SupportOverviewResponse, 'success'> {
  return {
    supportUntil: iso(window.supportUntil),
    covered: window.covered,
    plan: window.plan
      ? {
          state: window.plan.state,
          currentPeriodEnd: iso(window.plan.currentPeriodEnd),
          cancelAtPeriodEnd: window.plan.cancelAtPeriodEnd,
          startsAt: iso(window.plan.startsAt ?? null),
        }
      : null,
    planOffer: { ...offer, startsAt: iso(window.includedUntil && window.includedUntil > now ? window.includedUntil : null) },
    requests,
    responseTargetHours: deps.config.SUPPORT_FIRST_RESPONSE_HOURS,
  };
}

/** Attachments must be files of this order; locked shared so a delete waits for this write (and then sees the file in use). */
async function checkedFiles(tx: Tx, order: OrderRef, fileIds: readonly string[] | undefined): Promise<string[]> {
  const files = await filesOfOrder(tx, { id: order.orderId, publicId: order.orderPublicId }, fileIds ?? []);
  const ids = files.map((f) => f.id);
  if (ids.length) await tx.select({ id: orderFiles.id }).from(orderFiles).where(inArray(orderFiles.id, ids)).for('share');
  return ids;
}

const ref = (order: OrderRef, r: RequestRow): SupportRef => ({ ...order, requestId: r.id, title: r.title });

async function publishChange(
  deps: AppDeps,
  tx: Tx,
  order: OrderRef,
  r: RequestRow,
  from: SupportState | null,
  by: 'customer' | 'agency' | 'job',
  at: Date,
) {
  await deps.events.publish(tx, 'support.request', {
    ...ref(order, r),
    category: r.category,
    state: r.state,
    from,
    by,
    createdAt: r.createdAt,
    lastMessageAt: r.lastMessageAt,
    at,
  });
}

/**
 * Opens a request. Outside the support window it is refused with 402 SUPPORT_ENDED and a message
 * offering the plan; nothing is stored (the check and the insert are one transaction, the order
 * row locked shared so a delivery undone meanwhile cannot slip between them).
 */
export async function openRequest(
  deps: AppDeps,
  order: OrderRef,
  viewer: ThreadViewer,
  body: CreateSupportRequestBody,
  now = new Date(),
): Promise<SupportRequest> {
  return deps.events.transaction(async (tx) => {
    await tx.select({ id: orders.id }).from(orders).where(eq(orders.id, order.orderId)).for('share');
    const window = await supportWindow(tx, deps.queries.supportExtension, deps.config.SUPPORT_DAYS, order.orderId, now);
    if (!window.covered) {
      const ended = window.supportUntil ? ` on ${window.supportUntil.toISOString().slice(0, 10)}` : '';
      const offer = await maintenanceOffer(deps, tx, order.orderId);
      throw new AppError(
        'SUPPORT_ENDED',
        `Support for this website ended${ended}. Our maintenance plan (${monthlyPriceLabel(offer)}) keeps it covered: subscribe ` +
          `from your order page, then send this request again.`,
      );
    }
    const fileIds = await checkedFiles(tx, order, body.fileIds);
    const [row] = await tx
      .insert(supportRequests)
      .values({
        orderId: order.orderId,
        title: body.title,
        description: body.description,
        category: body.category,
        createdBy: viewer.userId,
        createdAt: now,
        lastMessageAt: now,
        lastCustomerMessageAt: now,
        waitingSince: now,
      })
      .returning();
    if (fileIds.length)
      await tx.insert(supportRequestFiles).values(fileIds.map((fileId, position) => ({ requestId: row!.id, fileId, position })));
    await publishChange(deps, tx, order, row!, null, 'customer', now);
    return toRequest(tx, row!);
  });
}

/** The request of this order, locked for a change; another order's request is a 404 like a missing one. */
async function lockRequest(tx: Tx, order: OrderRef, requestId: string): Promise<RequestRow> {
  const [row] = await tx
    .select()
    .from(supportRequests)
    .where(and(eq(supportRequests.id, requestId), eq(supportRequests.orderId, order.orderId)))
    .for('update');
  if (!row) throw notFound('Support request not found.');
  return row;
}

export async function requestOf(db: Db, order: OrderRef, requestId: string): Promise<RequestRow> {
  const [row] = await db
    .select()
    .from(supportRequests)
    .where(and(eq(supportRequests.id, requestId), eq(supportRequests.orderId, order.orderId)))
    .limit(1);
  if (!row) throw notFound('Support request not found.');
  return row;
}

/** The thread, oldest first. Reading it marks the reader's support notices of this request read (no e-mail repeats it). */
export async function listThread(deps: AppDeps, order: OrderRef, request: RequestRow, viewer: ThreadViewer): Promise<SupportMessage[]> {
  const side = viewer.side;
  const rows = await deps.db
    .select({
      id: supportMessages.id,
      sender: supportMessages.sender,
      text: supportMessages.text,
      createdAt: supportMessages.createdAt,
      senderUserId: supportMessages.senderUserId,
      senderName: users.name,
    })
    .from(supportMessages)
    .leftJoin(users, eq(users.id, supportMessages.senderUserId))
    .where(eq(supportMessages.requestId, request.id))
    .orderBy(asc(supportMessages.seq));
  const ids = rows.map((r) => r.id);
  const files = ids.length
    ? await deps.db
        .select({ messageId: supportMessageFiles.messageId, fileId: supportMessageFiles.fileId })
        .from(supportMessageFiles)
        .where(inArray(supportMessageFiles.messageId, ids))
        .orderBy(asc(supportMessageFiles.position))
    : [];
  await deps.db
    .update(notices)
    .set({ readAt: new Date() })
    .where(
      and(
        eq(notices.orderId, order.orderId),
        eq(notices.recipient, side),
        eq(notices.kind, 'support_reply'),
        sql`${notices.readAt} is null and ${notices.sentAt} is null`,
        or(eq(notices.refId, request.id), ids.length ? inArray(notices.refId, ids) : undefined),
      ),
    );
  return rows.map((r) => ({
    id: r.id,
    sender: r.sender,
    text: r.text,
    fileIds: files.filter((f) => f.messageId === r.id).map((f) => f.fileId),
    createdAt: r.createdAt.toISOString(),
    authorName: authorNameOf(r.sender, r.senderName, deps.config.BRAND_NAME),
    mine: r.senderUserId !== null && r.senderUserId === viewer.userId,
  }));
}

/**
 * Adds a message. Nobody writes on a closed request (409: the customer opens a new one). A
 * customer's message on a resolved request reopens it — writing again means it is not solved.
 * The customer's message starts (or continues) their wait; the agency's ends it. The founder's
 * message is audited in the same transaction.
 */
export async function postSupportMessage(
  deps: AppDeps,
  order: OrderRef,
  requestId: string,
  viewer: ThreadViewer,
  body: PostSupportMessageBody,
  now = new Date(),
): Promise<{ message: SupportMessage; request: SupportRequest }> {
  return deps.events.transaction(async (tx) => {
    const before = await lockRequest(tx, order, requestId);
    if (before.state === 'closed') throw conflict('This request is closed. Open a new request if you need more help.');
    const fileIds = await checkedFiles(tx, order, body.fileIds);
    const [message] = await tx
      .insert(supportMessages)
      .values({ requestId, sender: viewer.side, senderUserId: viewer.userId, text: body.text, createdAt: now })
      .returning();
    if (fileIds.length)
      await tx.insert(supportMessageFiles).values(fileIds.map((fileId, position) => ({ messageId: message!.id, fileId, position })));
    const customer = viewer.side === 'customer';
    const reopens = customer && before.state === 'resolved';
    const [after] = await tx
      .update(supportRequests)
      .set(
        customer
          ? {
              lastMessageAt: now,
              lastCustomerMessageAt: now,
              waitingSince: before.waitingSince ?? now,
              ...(reopens ? { state: 'open' as const, resolvedAt: null } : {}),
            }
          : { lastMessageAt: now, waitingSince: null, firstResponseAt: before.firstResponseAt ?? now },
      )
      .where(eq(supportRequests.id, requestId))
      .returning();
    if (!customer) {
      await recordAudit(tx, {
        actorUserId: viewer.userId,
        action: 'support.message.send',
        entity: 'support_request',
        entityId: requestId,
        // The text is the customer's business, not the audit log's: its size and attachments only.
        before: null,
        after: { orderId: order.orderPublicId, messageId: message!.id, length: body.text.length, fileIds },
      });
    }
    if (reopens) await publishChange(deps, tx, order, after!, 'resolved', 'customer', now);
    const shaped: SupportMessage = {
      id: message!.id,
      sender: message!.sender,
      text: message!.text,
      fileIds,
      createdAt: message!.createdAt.toISOString(),
      authorName: await authorNameOfUser(tx, viewer.side, viewer.userId, deps.config.BRAND_NAME),
      mine: true,
    };
    await deps.events.publish(tx, 'support.message', {
      ...ref(order, after!),
      messageId: shaped.id,
      sender: viewer.side,
      senderUserId: viewer.userId,
      text: shaped.text,
      fileIds,
      at: now,
    });
    return { message: shaped, request: await toRequest(tx, after!) };
  });
}

/** The customer reopens a resolved request (the only state change a customer may make): 409 from any other state. */
export async function reopenRequest(deps: AppDeps, order: OrderRef, requestId: string, now = new Date()): Promise<SupportRequest> {
  return deps.events.transaction(async (tx) => {
    const before = await lockRequest(tx, order, requestId);
    if (before.state !== 'resolved') {
      throw conflict(
        before.state === 'closed'
          ? 'This request is closed. Open a new request if you need more help.'
          : 'Only a resolved request can be reopened.',
      );
    }
    const [after] = await tx
      .update(supportRequests)
      .set({ state: 'open', resolvedAt: null, waitingSince: before.waitingSince ?? now, lastCustomerMessageAt: now })
      .where(eq(supportRequests.id, requestId))
      .returning();
    await publishChange(deps, tx, order, after!, 'resolved', 'customer', now);
    return toRequest(tx, after!);
  });
}

/**
 * The customer marks their request resolved (the answer helped): from open or in progress only —
 * a resolved request again is a 409, like the founder's same-state change. Ends the wait and
 * starts the auto-close clock, as the founder's "resolved" does; the customer may then rate it
 * (docs/decisions/214-ratings.md).
 */
export async function resolveByCustomer(deps: AppDeps, order: OrderRef, requestId: string, now = new Date()): Promise<SupportRequest> {
  return deps.events.transaction(async (tx) => {
    const before = await lockRequest(tx, order, requestId);
    if (before.state === 'resolved') throw conflict('This request is already resolved.');
    if (before.state === 'closed') throw conflict('This request is closed.');
    const [after] = await tx
      .update(supportRequests)
      .set({ state: 'resolved', resolvedAt: now, waitingSince: null })
      .where(eq(supportRequests.id, requestId))
      .returning();
    await publishChange(deps, tx, order, after!, before.state, 'customer', now);
    return toRequest(tx, after!);
  });
}

/** The order of a request, for the founder's routes addressed by request id (404 for an unknown id). */
export async function orderOfRequest(db: Db, requestId: string): Promise<OrderRef> {
  const [row] = await db
    .select({ orderId: orders.id, orderPublicId: orders.publicId, customerEmail: users.email })
    .from(supportRequests)
    .innerJoin(orders, eq(orders.id, supportRequests.orderId))
    .innerJoin(users, eq(users.id, orders.userId))
    .where(eq(supportRequests.id, requestId))
    .limit(1);
  if (!row) throw notFound('Support request not found.');
  return row;
}

/**
 * The founder sets a state (audited). Any other state than the current one is allowed — the
 * founder may take a request back from resolved or closed — but the same state is a 409 (a second
 * click changes nothing and records nothing). Resolving starts the auto-close clock; resolving or
 * closing ends the customer's wait.
 */
export async function setRequestState(
  deps: AppDeps,
  requestId: string,
  state: SupportState,
  actorUserId: string,
  now = new Date(),
): Promise<SupportRequest> {
  const order = await orderOfRequest(deps.db, requestId);
  return deps.events.transaction(async (tx) => {
    const before = await lockRequest(tx, order, requestId);
    if (before.state === state) throw conflict(`The request is already ${state.replace('_', ' ')}.`);
    const done = state === 'resolved' || state === 'closed';
    const [after] = await tx
      .update(supportRequests)
      .set({
        state,
        resolvedAt: state === 'resolved' ? now : null,
        closedAt: state === 'closed' ? now : null,
        waitingSince: done ? null : before.waitingSince,
      })
      .where(eq(supportRequests.id, requestId))
      .returning();
    await recordAudit(tx, {
      actorUserId,
      action: 'support.request.state',
      entity: 'support_request',
      entityId: requestId,
      before: { state: before.state },
      after: { state, orderId: order.orderPublicId },
    });
    await publishChange(deps, tx, order, after!, before.state, 'agency', now);
    return toRequest(tx, after!);
  });
}
