import { REVIEW_SOCKET_EVENTS, type ReviewChangedEvent } from '../../../contract/reviews.ts';
import type { AppDeps } from '../../deps.ts';
import type { ChatServer } from '../../plugins/socket.ts';
import { orderRoom } from '../chat/rooms.ts';

// Live review rounds: a round opened, pinned or decided is announced to the order's room (the one
// the order page joins with `joinOrder`), so another tab or the other side reads it again — a
// decided round stops offering Approve everywhere at once. After commit: nobody hears of what is
// not stored; the adapter carries it to sockets on every instance.
export function registerReviewSocket(io: ChatServer, deps: AppDeps) {
  const announce = (orderId: string, reviewId: string) => {
    const event: ReviewChangedEvent = { orderId, reviewId };
    io.to(orderRoom(orderId)).emit(REVIEW_SOCKET_EVENTS.reviewChanged, event);
  };
  deps.events.afterCommit('review.decided', async (e) => announce(e.orderPublicId, e.reviewId));
  deps.events.afterCommit('review.commented', async (e) => announce(e.orderPublicId, e.reviewId));
  deps.events.afterCommit('review.opened', async (e) => announce(e.orderPublicId, e.reviewId));
}
