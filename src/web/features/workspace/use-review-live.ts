import { REVIEW_SOCKET_EVENTS } from '../../../contract/reviews.ts';
import { useOrderRoom } from './use-order-room.ts';

const EVENTS = [REVIEW_SOCKET_EVENTS.reviewChanged];

/** Reads the rounds again when one of the order's rounds changes elsewhere (another tab, the other side). */
export function useReviewLive(orderId: string, reload: () => Promise<void>) {
  useOrderRoom(orderId, EVENTS, (event) => {
    if (event) void reload();
  });
}
