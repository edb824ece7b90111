import type { FastifyInstance } from 'fastify';
import { type DefaultEventsMap, Server, type Socket } from 'socket.io';
import { createAdapter as createPostgresAdapter } from '@socket.io/postgres-adapter';
import { createAdapter as createRedisAdapter } from '@socket.io/redis-adapter';
import { Redis } from 'ioredis';
import pg from 'pg';
import type { FastifyBaseLogger } from 'fastify';
import { SOCKET_PATH } from '../../contract/chat.ts';
import type { AppDeps } from '../deps.ts';
import { type AuthContext, findSession } from '../features/auth/sessions.ts';
import { endWhenStepUpLapses, mayEnterBackOffice } from '../features/auth/back-office-access.ts';
import { clientAddress } from '../features/chat/client-address.ts';
import { allowedOrigin } from './security.ts';
import { type AddressLimit, createAddressLimit } from '../features/chat/address-limit.ts';
import { createNotifyBatcher } from '../db/notify-batcher.ts';
import { createAddressSockets } from '../features/chat/address-sockets.ts';
import { inSomeChat } from '../features/chat/rooms.ts';

const sessionRoom = (id: string) => `session:${id}`;
const userRoom = (id: string) => `user:${id}`;

/** What the server knows about a connection; decided at the handshake, never by a payload. */
export interface SocketData {
  auth: AuthContext | null;
  /**
   * 'agency' is the agency's side of the chat: the owner or staff (decision 191), with the step-up
   * confirmed at the handshake; its messages are stored with the chat contract's sender 'admin'. A back-office
   * session that is not confirmed connects as 'customer'
   * (it hears nothing of the console) and its admin events answer STEP_UP_REQUIRED.
   */
  role: 'visitor' | 'customer' | 'agency';
  /** The visitor's address (TRUST_PROXY-aware), for per-address limits. */
  address: string;
}

export type ChatServer = Server<DefaultEventsMap, DefaultEventsMap, DefaultEventsMap, SocketData>;
type ChatSocketOfServer = Socket<DefaultEventsMap, DefaultEventsMap, DefaultEventsMap, SocketData>;

/**
 * socket.io on Fastify's HTTP server at /socket.io. With several instances the events travel
 * through Redis (REDIS_URL) or PostgreSQL LISTEN/NOTIFY (DATABASE_URL); the adapter's table is
 * created by migration 0400 (docs/decisions/043-chat-several-instances.md).
 */
export function registerSocketServer(app: FastifyInstance, deps: AppDeps): { io: ChatServer; messageLimit: AddressLimit } {
  // The HTTP API's origins exactly. `cors` answers polling requests with the headers;
  // `allowRequest` also refuses a WebSocket upgrade from a foreign page, which CORS never covers.
  const originAllowed = allowedOrigin(deps.config);
  const io: ChatServer = new Server(app.server, {
    path: SOCKET_PATH,
    cors: { origin: (origin, cb) => cb(null, originAllowed(origin)), credentials: false },
    allowRequest: (req, cb) => cb(originAllowed(req.headers.origin) ? null : 'Origin not allowed', originAllowed(req.headers.origin)),
    serveClient: false,
    // Chat payloads are small; a 10,000-character message still gets a readable error, not a drop.
    maxHttpBufferSize: 64 * 1024,
    pingInterval: 20_000,
    pingTimeout: 20_000,
  });

  const closers: (() => Promise<unknown>)[] = [];
  let redis: Redis | undefined;
  if (deps.config.REDIS_URL) {
    const pub = new Redis(deps.config.REDIS_URL, { maxRetriesPerRequest: 2 });
    const sub = pub.duplicate();
    for (const c of [pub, sub]) c.on('error', (err) => deps.log.warn({ err: err.message }, 'socket.io redis'));
    io.adapter(createRedisAdapter(pub, sub, { key: 'webagency-socket.io' }));
    redis = pub;
    closers.push(async () => {
      // The adapter's close() fires its unsubscribes without waiting; let them finish before quitting.
      await Promise.allSettled([sub.punsubscribe(), sub.unsubscribe()]);
      await Promise.allSettled([pub.quit(), sub.quit()]);
    });
  } else if (deps.database.pool) {
    io.adapter(localFirstPostgresAdapter(deps.database.pool, deps.log));
  }

  // The handshake's auth.token is the API's bearer token. A missing or dead token makes a visitor,
  // exactly like optionalUser on HTTP; admin events check the role and the step-up again on every use.
  io.use((socket, next) => {
    const token = (socket.handshake.auth as { token?: unknown } | undefined)?.token;
    const lookup = typeof token === 'string' && token ? findSession(deps.db, token) : Promise.resolve(null);
    lookup
      .then((auth) => {
        socket.data.auth = auth;
        socket.data.role = mayEnterBackOffice(deps.config, auth) ? 'agency' : auth ? 'customer' : 'visitor';
        next();
      })
      .catch((err) => {
        deps.log.error({ err }, 'socket handshake');
        next(new Error('Chat is unavailable right now.'));
      });
  });

  // At most CHAT_SOCKETS_MAX_PER_IP open sockets per visitor address on this instance; at the bound
  // the address's oldest socket in no chat makes room, and only if all are in chats is the new one
  // refused (decision 106). Admin sockets (the console) are never evicted.
  // Registered last: a socket counted here connects, so its 'disconnect' uncounts it; one whose
  // connection died before it connected stays counted until it is the first to go.
  const perAddress = createAddressSockets<ChatSocketOfServer>(deps.config.CHAT_SOCKETS_MAX_PER_IP, {
    // A socket still between its middleware and its connection is not evictable (disconnect() would
    // do nothing and it would connect uncounted); one whose connection died there is.
    evictable: (s) => s.data.role !== 'agency' && !inSomeChat(s.rooms) && (s.connected || s.conn.readyState !== 'open'),
    evict: (s) => {
      deps.log.debug({ address: s.data.address }, 'chat: idle socket evicted for a newer one from its address');
      // A live one is told to stay away ("io server disconnect": socket.io clients do not reconnect
      // after it); a dead one only leaves the count.
      s.disconnect(true);
    },
  });
  io.use((socket, next) => {
    const address = clientAddress(socket.request, deps.config.TRUST_PROXY);
    socket.data.address = address;
    if (!perAddress.admit(address, socket)) return next(new Error('Too many connections. Please try again later.'));
    socket.on('disconnect', () => perAddress.release(address, socket));
    next();
  });

  // A revoked session's sockets end on every instance: each signed-in socket sits in its
  // session's and its user's room, and disconnectSockets goes through the adapter.
  io.on('connection', (socket) => {
    const auth = socket.data.auth;
    if (auth) void socket.join([sessionRoom(auth.sessionId), userRoom(auth.user.id)]);
    // A back-office socket hears the console's broadcasts only while its step-up holds: when the
    // window closes it is ended, and it comes back unconfirmed until the passkey confirms it again.
    // The order rooms arm the same timer when an agency socket joins (order-messages/socket-handlers.ts).
    if (auth && socket.data.role === 'agency') endWhenStepUpLapses(socket, deps.config, auth);
  });
  deps.revocations.on((r) => {
    io.in('sessionId' in r ? sessionRoom(r.sessionId) : userRoom(r.userId)).disconnectSockets(true);
  });

  // Upgraded websockets keep the HTTP server open: end them before Fastify closes it.
  // Clients must reconnect to another instance, so no socket.io DISCONNECT packet ("io server
  // disconnect" tells a client to stay away): end each socket here and close the transports, as
  // io.close() does; the client sees "transport close" and reconnects (decision 061).
  app.addHook('preClose', async () => {
    for (const nsp of io._nsps.values()) for (const socket of nsp.sockets.values()) socket._onclose('server shutting down');
    io.engine.close();
    await Promise.allSettled([...io._nsps.values()].map(async (nsp) => nsp.adapter.close()));
    for (const close of closers) await close();
  });
  // 30 messages in any 10 s per address across all its sockets and instances (a sliding
  // window: decision 105): far above a person typing, even several behind one office address; far
  // below a scripted flood.
  const messageLimit = createAddressLimit({ max: 30, windowMs: 10_000, redis, log: deps.log });
  return { io, messageLimit };
}

type AdapterPacket = { nsp?: string; data?: unknown };
type AdapterOpts = { rooms: Set<string>; except?: Set<string>; flags?: { local?: boolean } };
interface ClusterAdapterInternals {
  broadcast(packet: AdapterPacket, opts: AdapterOpts): unknown;
  publishAndReturnOffset(message: { type: number; data: unknown }): Promise<unknown>;
}
// socket.io-adapter's MessageType.BROADCAST.
const BROADCAST = 3;
// The statement @socket.io/postgres-adapter publishes with (util.js, PubSubClient.publish).
const ADAPTER_NOTIFY = 'SELECT pg_notify($1, $2)';

/**
 * The PostgreSQL adapter (LISTEN/NOTIFY) with three changes found under load (18.6):
 * - its LISTEN connection is a client of its own, so it never holds one of the pool's connections;
 * - a broadcast reaches this instance's sockets at once, then is published for the others. The
 *   stock ClusterAdapter awaits the pg_notify (a pool round trip, seconds when the pool is busy)
 *   before delivering locally, so the sender's own newMessage waited on the database twice;
 * - its NOTIFYs are batched and do not wait for a WAL flush (db/notify-batcher.ts).
 */
function localFirstPostgresAdapter(pool: pg.Pool, log: FastifyBaseLogger) {
  const notifier = createNotifyBatcher(pool);
  const listenPool = {
    connect: async () => {
      const client = new pg.Client(pool.options);
      // The adapter attaches no 'error' listener: without one, a database restart would crash the
      // process. It reconnects by itself on 'end'.
      client.on('error', (err) => log.warn({ err: err.message }, 'socket.io postgres adapter connection'));
      await client.connect();
      return Object.assign(client, { release: () => void client.end().catch(() => {}) });
    },
    // The adapter's NOTIFYs go out batched, without waiting for a WAL flush (db/notify-batcher.ts).
    query: (text: string, params?: unknown[]) =>
      text === ADAPTER_NOTIFY && params ? notifier.notify(String(params[0]), String(params[1])) : pool.query(text, params),
  } as unknown as pg.Pool;
  const Stock = createPostgresAdapter(listenPool, {
    tableName: 'socket_io_attachments',
    errorHandler: (err) => log.warn({ err: err.message }, 'socket.io postgres adapter'),
  }) as unknown as new (nsp: unknown) => ClusterAdapterInternals;

  return function LocalFirstAdapter(nsp: unknown) {
    const adapter = new Stock(nsp);
    // The in-memory Adapter's broadcast: what ClusterAdapter calls after it has published.
    type Proto = { constructor: { name: string }; broadcast: ClusterAdapterInternals['broadcast'] } | null;
    let proto = Object.getPrototypeOf(adapter) as Proto;
    while (proto && proto.constructor.name !== 'Adapter') proto = Object.getPrototypeOf(proto) as Proto;
    if (!proto) return adapter; // an adapter of another shape: keep its own behaviour
    const deliverHere = proto.broadcast;
    const stockBroadcast = adapter.broadcast.bind(adapter);
    adapter.broadcast = (packet, opts) => {
      if (opts.flags?.local) return stockBroadcast(packet, opts);
      // Encoded for the others first (the adapter serialises synchronously), then delivered here.
      const published = adapter.publishAndReturnOffset({
        type: BROADCAST,
        data: { packet, opts: { rooms: [...opts.rooms], except: [...(opts.except ?? [])], flags: opts.flags } },
      });
      deliverHere.call(adapter, packet, opts);
      published.catch((err: Error) => log.warn({ err: err.message }, 'socket.io postgres adapter: publish failed'));
    };
    return adapter;
  } as unknown as ReturnType<typeof createPostgresAdapter>;
}

/**
 * Emits a message to a room with `mine` right for each reader (docs/decisions/271-message-author-names.md):
 * the writer's own sockets (their user room) hear `mine: true`, everyone else in the room `mine: false`.
 * The writer's sockets outside the room hear it too; the screens take only their own order's messages.
 */
export function emitWithMine<T extends { mine: boolean }>(
  io: ChatServer,
  room: string,
  event: string,
  writerUserId: string | null,
  payload: T,
) {
  if (!writerUserId) return void io.to(room).emit(event, { ...payload, mine: false });
  io.to(room)
    .except(userRoom(writerUserId))
    .emit(event, { ...payload, mine: false });
  io.to(userRoom(writerUserId)).emit(event, { ...payload, mine: true });
}
