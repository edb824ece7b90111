import { useEffect, useRef } from 'react';
import type { Socket } from 'socket.io-client';
import { ORDER_SOCKET_EVENTS } from '../../../contract/order-messages.ts';
import { SUPPORT_SOCKET_EVENTS, type SupportMessageEvent, type SupportRequestEvent } from '../../../contract/support.ts';
import { openChatSocket } from '../chat/chat-socket.ts';

/**
 * Calls `onChange` when a support request of the order gets a message or changes state (the
 * order's socket.io room, joined as the Messages tab joins it), and after a reconnect (what was
 * missed). Without the socket the screens still read everything on opening and after each send.
 */
export function useSupportLive(orderId: string, onChange: (requestId: string | null) => void) {
  const latest = useRef(onChange);
  latest.current = onChange;
  useEffect(() => {
    let socket: Socket | null = null;
    let closed = false;
    void openChatSocket().then((s) => {
      if (closed) return void s.disconnect();
      socket = s;
      s.on('connect', () => {
        s.emit(ORDER_SOCKET_EVENTS.joinOrder, { orderId }, () => {});
        latest.current(null);
      });
      const on = (event: SupportMessageEvent | SupportRequestEvent, requestId: string) => {
        if (event.orderId === orderId) latest.current(requestId);
      };
      s.on(SUPPORT_SOCKET_EVENTS.supportMessage, (e: SupportMessageEvent) => on(e, e.requestId));
      s.on(SUPPORT_SOCKET_EVENTS.supportRequest, (e: SupportRequestEvent) => on(e, e.id));
    });
    return () => {
      closed = true;
      socket?.emit(ORDER_SOCKET_EVENTS.leaveOrder, { orderId });
      socket?.removeAllListeners();
      socket?.disconnect();
    };
  }, [orderId]);
}
