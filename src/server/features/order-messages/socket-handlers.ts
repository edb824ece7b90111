import { joinOrderPayload, ORDER_SOCKET_EVENTS, type OrderSocketAck } from '../../../contract/order-messages.ts';
import type { AppDeps } from '../../deps.ts';
import { AppError, badRequest, tooManyRequests, unauthorized } from '../../lib/app-error.ts';
import { findSession } from '../auth/sessions.ts';
import { assertBackOffice, endWhenStepUpLapses } from '../auth/back-office-access.ts';
import { isBackOffice } from '../../../domain/roles.ts';
import type { ChatServer } from '../../plugins/socket.ts';
import { createRateBucket } from '../chat/rate-bucket.ts';
import { orderRoom } from '../chat/rooms.ts';
import { workspaceOrder } from '../../lib/workspace-order.ts';

// Live order messages on the chat's socket.io connection: a room per order,
// joined with `joinOrder` by the order's customer or an admin. A message is broadcast after its
// transaction committed (the `order.message` event, after commit), so nobody hears of a message
// that is not stored; through the adapter it reaches sockets on every instance.

export function registerOrderMessageSocket(io: ChatServer, deps: AppDeps) {
  io.on('connection', (socket) => {
    const joins = createRateBucket(30, 3);
    /**
     * The session is read again on every join (through the session cache), so an expired or revoked
     * session cannot join (decision 089). The agency's side (owner or staff: orders are staff work,
     * decision 191) must still be on it and have its step-up confirmed (decision 190).
     */
    const viewer = async () => {
      const token = (socket.handshake.auth as { token?: unknown } | undefined)?.token;
      const auth = typeof token === 'string' && token ? await findSession(deps.db, token) : null;
      if (!auth || auth.sessionId !== socket.data.auth?.sessionId) throw unauthorized('Sign in to follow an order.');
      if (isBackOffice(auth.user.role)) {
        const agency = assertBackOffice(deps.config, auth);
        // Admitted on the agency's side, maybe after an HTTP step-up this socket's handshake never
        // saw: it stays there only until this confirmation lapses (back-office-access.ts).
        endWhenStepUpLapses(socket, deps.config, agency);
        return { side: 'agency' as const, userId: agency.user.id };
      }
      return { side: 'customer' as const, userId: auth.user.id };
    };
    const handle = (event: string, work: (orderId: string) => Promise<void>) =>
      socket.on(event, async (raw: unknown, maybeAck?: unknown) => {
        const ack = (typeof maybeAck === 'function' ? maybeAck : typeof raw === 'function' ? raw : undefined) as
          ((a: OrderSocketAck) => void) | undefined;
        try {
          if (!joins.take()) throw tooManyRequests('Too many requests. Please wait a moment.');
          const parsed = joinOrderPayload.safeParse(typeof raw === 'function' ? undefined : raw);
          if (!parsed.success) throw badRequest(parsed.error.issues[0]?.message ?? 'Invalid request.');
          await work(parsed.data.orderId);
          ack?.({ ok: true });
        } catch (err) {
          const e = err instanceof AppError ? err : new AppError('INTERNAL', 'Something went wrong. Please try again.');
          if (!(err instanceof AppError)) deps.log.error({ err, event }, 'order socket event failed');
          ack?.({ ok: false, code: e.code, message: e.message });
        }
      });

    handle(ORDER_SOCKET_EVENTS.joinOrder, async (orderId) => {
      const order = await workspaceOrder(deps.db, orderId, await viewer());
      await socket.join(orderRoom(order.orderPublicId));
    });
    handle(ORDER_SOCKET_EVENTS.leaveOrder, async (orderId) => {
      await socket.leave(orderRoom(orderId));
    });
  });
}
