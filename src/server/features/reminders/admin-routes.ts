import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { asc, eq } from 'drizzle-orm';
import type { AppDeps } from '../../deps.ts';
import { orders } from '../../db/schema/orders.ts';
import { paymentReminders, reminderPauseHistory, reminderPauses } from '../../db/schema/reminders.ts';
import { users } from '../../db/schema/platform.ts';
import { notFound } from '../../lib/app-error.ts';
import { authOf } from '../../plugins/auth.ts';
import { recordAudit } from '../../lib/audit-log.ts';
import { route } from '../../lib/route.ts';
import { getAdminOrdersReminders, putAdminOrdersRemindersPause } from '../../../contract/reminders.ts';

async function orderRowId(deps: AppDeps, publicId: string) {
  const [o] = await deps.db.select({ id: orders.id }).from(orders).where(eq(orders.publicId, publicId)).limit(1);
  if (!o) throw notFound('Order not found.');
  return o.id;
}

async function remindersOf(deps: AppDeps, orderId: string) {
  const rows = await deps.db
    .select()
    .from(paymentReminders)
    .where(eq(paymentReminders.orderId, orderId))
    .orderBy(asc(paymentReminders.round), asc(paymentReminders.step));
  const [pause] = await deps.db.select().from(reminderPauses).where(eq(reminderPauses.orderId, orderId)).limit(1);
  const history = await deps.db
    .select({ pausedAt: reminderPauseHistory.pausedAt, pausedBy: users.email, resumedAt: reminderPauseHistory.resumedAt })
    .from(reminderPauseHistory)
    .leftJoin(users, eq(users.id, reminderPauseHistory.pausedBy))
    .where(eq(reminderPauseHistory.orderId, orderId))
    .orderBy(asc(reminderPauseHistory.pausedAt), asc(reminderPauseHistory.id));
  return {
    success: true as const,
    paused: Boolean(pause),
    reminders: rows.map((r) => ({
      round: r.round,
      step: r.step,
      kind: r.kind,
      dueAt: r.dueAt.toISOString(),
      state: r.state,
      reason: r.reason,
      sentAt: r.sentAt?.toISOString() ?? null,
    })),
    pauses: history.map((h) => ({
      pausedAt: h.pausedAt.toISOString(),
      pausedBy: h.pausedBy,
      resumedAt: h.resumedAt?.toISOString() ?? null,
    })),
  };
}

/** Back office: what was sent and when, and pausing an order's reminders (under the /admin guard). */
export const adminReminderRoutes: FastifyPluginAsyncZod<{ deps: AppDeps }> = async (app, { deps }) => {
  route(app, getAdminOrdersReminders, { schema: { tags: ['admin'], summary: "An order's payment reminders" } }, async (request) =>
    remindersOf(deps, await orderRowId(deps, request.params.id)),
  );
  route(
    app,
    putAdminOrdersRemindersPause,
    { schema: { tags: ['admin'], summary: 'Pause or resume the reminders of an order' } },
    async (request) => {
      const id = await orderRowId(deps, request.params.id);
      const actorUserId = authOf(request).user.id;
      // The change and its audit record in one transaction ( every admin write is audited).
      await deps.db.transaction(async (tx) => {
        const [before] = await tx
          .select({ orderId: reminderPauses.orderId })
          .from(reminderPauses)
          .where(eq(reminderPauses.orderId, id))
          .limit(1);
        if (request.body.paused) {
          await tx.insert(reminderPauses).values({ orderId: id, pausedBy: actorUserId }).onConflictDoNothing();
        } else {
          await tx.delete(reminderPauses).where(eq(reminderPauses.orderId, id));
        }
        await recordAudit(tx, {
          actorUserId,
          action: request.body.paused ? 'order.reminders.pause' : 'order.reminders.resume',
          entity: 'order',
          entityId: request.params.id,
          before: { paused: Boolean(before) },
          after: { paused: request.body.paused },
        });
      });
      return remindersOf(deps, id);
    },
  );
};
