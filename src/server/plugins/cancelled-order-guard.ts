import type { FastifyInstance } from 'fastify';
import type { Database } from '../db/client.ts';
import { cancelledOrderConflict } from '../features/payments/cancel.ts';

/**
 * A cancelled order takes no more work from its customer (docs/decisions/321-cancel-and-refund.md):
 * every write under /api/v1/orders/:orderId/ answers 409, in this one place rather than in each
 * feature (brief, files, messages, reviews, support, ratings, the plan). Reads stay open, and so does
 * marking messages read. Only the signed-in owner of the order gets the 409: for anyone else the
 * route answers as it would (404), so the guard tells a stranger nothing.
 */
const ORDER_WRITE = /^\/api\/v1\/orders\/:orderId\//;
const STILL_ALLOWED = new Set(['/api/v1/orders/:orderId/messages/read']);

export function registerCancelledOrderGuard(app: FastifyInstance, database: Pick<Database, 'query'>) {
  app.addHook('preHandler', async (request) => {
    if (request.method === 'GET' || request.method === 'HEAD') return;
    const url = request.routeOptions.url;
    if (!url || !ORDER_WRITE.test(url) || STILL_ALLOWED.has(url) || !request.auth) return;
    const orderId = (request.params as { orderId?: unknown }).orderId;
    if (typeof orderId !== 'string') return;
    const [row] = await database.query<{ cancelled: boolean }>(
      "select true as cancelled from orders where public_id = $1 and user_id = $2 and state = 'cancelled'",
      [orderId, request.auth.user.id],
    );
    if (row) throw cancelledOrderConflict();
  });
}
