import { and, eq, ne } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { orders } from '../db/schema/orders.ts';
import { users } from '../db/schema/platform.ts';
import type { MessageSide } from '../db/schema/order-messages.ts';
import { conflict, notFound } from './app-error.ts';
import type { OrderRef } from './domain-events.ts';

// The order of the workspace routes ( files, reviews, messages) as one rule, for every
// feature that needs it (order messages, reviews, support).

/** Who works on an order: its customer, or the agency (an admin, behind the admin guard). */
export interface ThreadViewer {
  side: MessageSide;
  userId: string;
}

/**
 * The order whose thread a viewer may use, named as events name it. A customer has only their own
 * orders past the checkout draft; any other id — another customer's, a draft, none — is the same
 * 404, so an id tells nothing (decision 142's rule). The agency has every paid order.
 */
export async function workspaceOrder(
  db: Db,
  publicId: string,
  viewer: ThreadViewer,
  opts: { deliveredOnly?: boolean; write?: boolean } = {},
): Promise<OrderRef> {
  const [row] = await db
    .select({ orderId: orders.id, orderPublicId: orders.publicId, customerEmail: users.email, state: orders.state })
    .from(orders)
    .innerJoin(users, eq(users.id, orders.userId))
    .where(
      and(
        eq(orders.publicId, publicId),
        // Support is for delivered orders only; anything else is the same 404.
        opts.deliveredOnly ? eq(orders.state, 'delivered') : ne(orders.state, 'awaiting_advance'),
        viewer.side === 'customer' ? eq(orders.userId, viewer.userId) : undefined,
      ),
    )
    .limit(1);
  if (!row) throw notFound('Order not found.');
  // A cancelled order is read, never worked on (docs/decisions/321-cancel-and-refund.md).
  if (opts.write && row.state === 'cancelled') throw conflict('This order is cancelled: nothing more can be changed on it.');
  return { orderId: row.orderId, orderPublicId: row.orderPublicId, customerEmail: row.customerEmail };
}
