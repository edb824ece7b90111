import { SUPPORT_SOCKET_EVENTS, type SupportMessageEvent, type SupportRequestEvent } from '../../../contract/support.ts';
import { useOrderRoom } from '../workspace/index.ts';

const EVENTS = [SUPPORT_SOCKET_EVENTS.supportMessage, SUPPORT_SOCKET_EVENTS.supportRequest];

/**
 * Calls `onChange` when a support request of the order gets a message or changes state (the
 * order's socket.io room), and after a reconnect (what was missed). Without the socket the screens
 * still read everything on opening and after each send.
 */
export function useSupportLive(orderId: string, onChange: (requestId: string | null) => void) {
  useOrderRoom(orderId, EVENTS, (event, payload) => {
    if (event === null) return onChange(null);
    onChange(
      event === SUPPORT_SOCKET_EVENTS.supportMessage ? (payload as SupportMessageEvent).requestId : (payload as SupportRequestEvent).id,
    );
  });
}
