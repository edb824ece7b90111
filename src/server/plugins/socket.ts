import type { FastifyInstance } from 'fastify';
import { type DefaultEventsMap, Server } from 'socket.io';
import { createAdapter as createPostgresAdapter } from '@socket.io/postgres-adapter';
import { createAdapter as createRedisAdapter } from '@socket.io/redis-adapter';
import { Redis } from 'ioredis';
import { SOCKET_PATH } from '../../contract/chat.ts';
import type { AppDeps } from '../deps.ts';
import { type AuthContext, findSession } from '../features/auth/sessions.ts';
import { clientAddress } from '../features/chat/client-address.ts';

const MAX_SOCKETS_PER_IP = 20;

/** What the server knows about a connection; decided at the handshake, never by a payload. */
export interface SocketData {
  auth: AuthContext | null;
  role: 'visitor' | 'customer' | 'admin';
}

export type ChatServer = Server<DefaultEventsMap, DefaultEventsMap, DefaultEventsMap, SocketData>;

/**
 * socket.io on Fastify's HTTP server at /socket.io. With several instances the events travel
 * through Redis (REDIS_URL) or PostgreSQL LISTEN/NOTIFY (DATABASE_URL); the adapter's table is
 * created by migration 0400 (docs/decisions/043-chat-several-instances.md).
 */
export function registerSocketServer(app: FastifyInstance, deps: AppDeps): ChatServer {
  const io: ChatServer = new Server(app.server, {
    path: SOCKET_PATH,
    serveClient: false,
    // Chat payloads are small; a 10,000-character message still gets a readable error, not a drop.
    maxHttpBufferSize: 64 * 1024,
    pingInterval: 20_000,
    pingTimeout: 20_000,
  });

  const closers: (() => Promise<unknown>)[] = [];
  if (deps.config.REDIS_URL) {
    const pub = new Redis(deps.config.REDIS_URL, { maxRetriesPerRequest: 2 });
    const sub = pub.duplicate();
    for (const c of [pub, sub]) c.on('error', (err) => deps.log.warn({ err: err.message }, 'socket.io redis'));
    io.adapter(createRedisAdapter(pub, sub, { key: 'webagency-socket.io' }));
    closers.push(async () => {
      // The adapter's close() fires its unsubscribes without waiting; let them finish before quitting.
      await Promise.allSettled([sub.punsubscribe(), sub.unsubscribe()]);
      await Promise.allSettled([pub.quit(), sub.quit()]);
    });
  } else if (deps.database.pool) {
    const pool = deps.database.pool;
    // The adapter keeps one client checked out for LISTEN and attaches no 'error' listener to it;
    // without one, a database restart would crash the process. It reconnects on 'end' by itself.
    const guardedPool = {
      connect: async () => {
        const client = await pool.connect();
        client.on('error', (err) => deps.log.warn({ err: err.message }, 'socket.io postgres adapter connection'));
        return client;
      },
      query: pool.query.bind(pool),
    } as unknown as typeof pool;
    io.adapter(
      createPostgresAdapter(guardedPool, {
        tableName: 'socket_io_attachments',
        errorHandler: (err) => deps.log.warn({ err: err.message }, 'socket.io postgres adapter'),
      }),
    );
  }

  // The handshake's auth.token is the API's bearer token. A missing or dead token makes a visitor,
  // exactly like optionalUser on HTTP; admin events check the role again on every use.
  io.use((socket, next) => {
    const token = (socket.handshake.auth as { token?: unknown } | undefined)?.token;
    const lookup = typeof token === 'string' && token ? findSession(deps.db, token) : Promise.resolve(null);
    lookup
      .then((auth) => {
        socket.data.auth = auth;
        socket.data.role = auth?.user.role === 'admin' ? 'admin' : auth ? 'customer' : 'visitor';
        next();
      })
      .catch((err) => {
        deps.log.error({ err }, 'socket handshake');
        next(new Error('Chat is unavailable right now.'));
      });
  });

  // At most MAX_SOCKETS_PER_IP open sockets per visitor address on this instance: every open socket
  // holds memory and triggers presence queries across instances, so a connection flood is refused.
  // Registered last: a socket counted here always connects, so its 'disconnect' always uncounts it.
  const perAddress = new Map<string, number>();
  io.use((socket, next) => {
    const address = clientAddress(socket.request, deps.config.TRUST_PROXY);
    const open = perAddress.get(address) ?? 0;
    if (open >= MAX_SOCKETS_PER_IP) return next(new Error('Too many connections. Please try again later.'));
    perAddress.set(address, open + 1);
    socket.on('disconnect', () => {
      const left = (perAddress.get(address) ?? 1) - 1;
      if (left <= 0) perAddress.delete(address);
      else perAddress.set(address, left);
    });
    next();
  });

  // Upgraded websockets keep the HTTP server open: end them before Fastify closes it.
  app.addHook('preClose', async () => {
    io.local.disconnectSockets(true);
    io.engine.close();
    await Promise.allSettled([...io._nsps.values()].map(async (nsp) => nsp.adapter.close()));
    for (const close of closers) await close();
  });
  return io;
}
