import { useEffect, useRef } from 'react';
import type { Socket } from 'socket.io-client';
import { ORDER_SOCKET_EVENTS } from '../../../contract/order-messages.ts';
import { openChatSocket } from '../chat/index.ts';

/**
 * Follows the order's socket.io room (joined with `joinOrder`, as the Messages tab joins it):
 * `onEvent` hears each of `events` for this order, `onEvent(null)` follows every (re)connect —
 * read again what may have been missed. Without the socket the screens still read on opening.
 */
export function useOrderRoom(orderId: string, events: readonly string[], onEvent: (event: string | null, payload?: unknown) => void) {
  const latest = useRef(onEvent);
  latest.current = onEvent;
  const names = events.join('\n');
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
      for (const name of names.split('\n')) {
        s.on(name, (payload: { orderId?: string } | undefined) => {
          if (payload?.orderId === orderId) latest.current(name, payload);
        });
      }
    });
    return () => {
      closed = true;
      socket?.emit(ORDER_SOCKET_EVENTS.leaveOrder, { orderId });
      socket?.removeAllListeners();
      socket?.disconnect();
    };
  }, [orderId, names]);
}
