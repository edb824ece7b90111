// A small cross-instance bus for cache invalidation: when one instance changes
// something that other instances cache (the featured promotion, a revoked session), it publishes
// the topic and every instance drops its copy. It rides on what the deployment already has:
// Redis pub/sub when REDIS_URL is set, else PostgreSQL LISTEN/NOTIFY when the database is
// PostgreSQL, else (PGlite: one process by construction) nothing but the local handlers.
//
// Delivery is best effort (a message published while an instance is reconnecting is lost), which is
// why every cache that listens also has a short TTL: the bus makes a change show at once, the TTL
// bounds how stale it can ever be.
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { Redis } from 'ioredis';
import type { FastifyBaseLogger } from 'fastify';

export type InvalidationHandler = (key: string | undefined) => void;

export interface InvalidationBus {
  /** 'local', 'redis' or 'postgres': what carries messages to other instances. */
  readonly transport: 'local' | 'redis' | 'postgres';
  /** Runs the local handlers at once, then tells the other instances. */
  publish(topic: string, key?: string): void;
  subscribe(topic: string, handler: InvalidationHandler): void;
  close(): Promise<void>;
}

const CHANNEL = 'webagency_invalidate';

interface Message {
  from: string;
  topic: string;
  key?: string;
}

export interface BusOptions {
  redisUrl?: string;
  /** PostgreSQL connection string (not used for PGlite). */
  postgresUrl?: string;
  /** PostgreSQL pool to NOTIFY through (one short statement per publish). */
  pool?: pg.Pool;
  log: FastifyBaseLogger;
}

export async function createInvalidationBus(opts: BusOptions): Promise<InvalidationBus> {
  const id = randomUUID();
  const handlers = new Map<string, InvalidationHandler[]>();
  const runLocal = (topic: string, key: string | undefined) => {
    for (const h of handlers.get(topic) ?? []) h(key);
  };
  const receive = (raw: string) => {
    try {
      const m = JSON.parse(raw) as Message;
      if (m.from !== id && typeof m.topic === 'string') runLocal(m.topic, typeof m.key === 'string' ? m.key : undefined);
    } catch {
      opts.log.warn('invalidation bus: unreadable message ignored');
    }
  };
  const encode = (topic: string, key?: string) => JSON.stringify({ from: id, topic, key } satisfies Message);
  const base = {
    subscribe(topic: string, handler: InvalidationHandler) {
      handlers.set(topic, [...(handlers.get(topic) ?? []), handler]);
    },
  };

  if (opts.redisUrl) {
    const sub = new Redis(opts.redisUrl, { maxRetriesPerRequest: 1 });
    const pub = new Redis(opts.redisUrl, { maxRetriesPerRequest: 1 });
    for (const c of [sub, pub]) c.on('error', (err: Error) => opts.log.warn({ err: err.message }, 'invalidation bus: Redis error'));
    sub.on('message', (_channel: string, raw: string) => receive(raw));
    await sub
      .subscribe(CHANNEL)
      .catch((err: Error) => opts.log.warn({ err: err.message }, 'invalidation bus: subscribe failed (caches fall back to their TTL)'));
    return {
      ...base,
      transport: 'redis',
      publish(topic, key) {
        runLocal(topic, key);
        pub
          .publish(CHANNEL, encode(topic, key))
          .catch((err: Error) => opts.log.warn({ err: err.message, topic }, 'invalidation bus: publish failed'));
      },
      async close() {
        sub.disconnect();
        pub.disconnect();
      },
    };
  }

  if (opts.postgresUrl && opts.pool) {
    const pool = opts.pool;
    let listener: pg.Client | undefined;
    let closed = false;
    // LISTEN holds its connection for good: its own client, outside the pool. Any loss — an
    // error on a live connection or a refused connect while the database restarts — schedules a
    // new attempt, for as long as the outage lasts (a single retry would leave the bus deaf).
    const listen = (): Promise<void> =>
      new Promise((settled) => {
        if (closed) return settled();
        const client = new pg.Client({ connectionString: opts.postgresUrl });
        let failed = false;
        const retry = (err: Error) => {
          if (failed) return;
          failed = true;
          if (listener === client) listener = undefined;
          opts.log.warn(
            { err: err.message },
            'invalidation bus: LISTEN connection lost, retrying (caches fall back to their TTL meanwhile)',
          );
          client.end().catch(() => {});
          if (!closed) setTimeout(() => void listen(), 1000).unref();
          settled();
        };
        client.on('notification', (n) => n.payload && receive(n.payload));
        client.on('error', retry);
        client
          .connect()
          .then(() => client.query(`listen ${CHANNEL}`))
          .then(async () => {
            if (closed) await client.end().catch(() => {});
            else listener = client;
            settled();
          }, retry);
      });
    await listen();
    return {
      ...base,
      transport: 'postgres',
      publish(topic, key) {
        runLocal(topic, key);
        pool
          .query('select pg_notify($1, $2)', [CHANNEL, encode(topic, key)])
          .catch((err: Error) => opts.log.warn({ err: err.message, topic }, 'invalidation bus: NOTIFY failed'));
      },
      async close() {
        closed = true;
        await listener?.end().catch(() => {});
      },
    };
  }

  return { ...base, transport: 'local', publish: runLocal, async close() {} };
}
