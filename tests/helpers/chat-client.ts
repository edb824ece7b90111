import { io as connect, type Socket } from 'socket.io-client';
import type { ChatAck } from '../../src/contract/chat.ts';

/**
 * A socket.io client as the browser makes it: websocket, /socket.io, bearer token in auth.
 * `forwardedFor` plays a proxy's X-Forwarded-For (the server must run with TRUST_PROXY).
 */
export async function chatClient(baseUrl: string, token?: string, forwardedFor?: string): Promise<Socket> {
  const socket = connect(baseUrl, {
    path: '/socket.io',
    transports: ['websocket'],
    auth: token ? { token } : {},
    ...(forwardedFor ? { extraHeaders: { 'x-forwarded-for': forwardedFor } } : {}),
    reconnection: false,
    forceNew: true,
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', reject);
  });
  return socket;
}

/** Emits and waits for the server's acknowledgement. */
export function request(socket: Socket, event: string, payload?: unknown): Promise<ChatAck> {
  return socket.timeout(5000).emitWithAck(event, payload) as Promise<ChatAck>;
}

/** Resolves with the next `event` whose payload matches. */
export function nextEvent<T = unknown>(socket: Socket, event: string, match: (p: T) => boolean = () => true, timeoutMs = 5000): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      socket.off(event, listener);
      reject(new Error(`no ${event} within ${timeoutMs} ms`));
    }, timeoutMs);
    const listener = (payload: T) => {
      if (!match(payload)) return;
      clearTimeout(timer);
      socket.off(event, listener);
      resolve(payload);
    };
    socket.on(event, listener);
  });
}

/** Collects every `event` for later assertions that something did NOT arrive. */
export function record<T = unknown>(socket: Socket, event: string): T[] {
  const seen: T[] = [];
  socket.on(event, (p: T) => seen.push(p));
  return seen;
}
