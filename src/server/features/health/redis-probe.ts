import { Redis } from 'ioredis';
import type { FastifyBaseLogger } from 'fastify';

export interface RedisProbe {
  state(): Promise<'up' | 'down'>;
  close(): Promise<void>;
}

/**
 * Health's own small Redis connection: it answers "can this instance reach Redis right now" without
 * borrowing the rate limiter's or the socket adapter's clients. No offline queue, so a PING while
 * Redis is away fails at once instead of waiting for a reconnect.
 */
export function createRedisProbe(url: string, log: FastifyBaseLogger): RedisProbe {
  const client = new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    connectTimeout: 2000,
    retryStrategy: (times) => Math.min(times * 200, 2000),
  });
  let warned = false;
  client.on('error', (err: Error) => {
    if (!warned) log.warn({ err: err.message }, 'health: Redis not reachable');
    warned = true;
  });
  client.on('ready', () => (warned = false));
  return {
    async state() {
      try {
        await Promise.race([client.ping(), new Promise((_, reject) => setTimeout(() => reject(new Error('timeout')), 1000).unref())]);
        return 'up';
      } catch {
        return 'down';
      }
    },
    async close() {
      client.disconnect();
    },
  };
}
