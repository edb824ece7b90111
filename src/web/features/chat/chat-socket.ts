import type { Socket } from 'socket.io-client';
import { SOCKET_PATH } from '../../../contract/chat.ts';
import { tokenStore } from '../../lib/api.ts';

/**
 * Opens the chat socket with the spec's client settings (§9: /socket.io, reconnect 1–5 s, 20 s
 * timeout, unlimited retries). The bearer token rides in the handshake, never in a payload.
 * WebSocket only, so several instances need no sticky sessions (docs/operations.md).
 */
export async function openChatSocket(): Promise<Socket> {
  const { io } = await import('socket.io-client');
  const token = tokenStore.get();
  return io({
    path: SOCKET_PATH,
    transports: ['websocket'],
    auth: token ? { token } : {},
    reconnection: true,
    reconnectionDelay: 1000,
    reconnectionDelayMax: 5000,
    reconnectionAttempts: Infinity,
    timeout: 20_000,
  });
}
