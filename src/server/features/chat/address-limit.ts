import type { Redis } from 'ioredis';
import type { FastifyBaseLogger } from 'fastify';

export interface AddressLimit {
  /** Counts one message from `address`; false once the address is over its limit for this window. */
  take(address: string): Promise<boolean>;
}

/**
 * Chat messages per visitor address per window (issue 13 §6): the per-socket bucket alone let 20
 * sockets from one address store 160 messages in a second. A fixed window counted in Redis when
 * REDIS_URL is set (so every instance shares it), else in this process. If Redis does not answer the
 * local count decides: a Redis outage must not stop the chat.
 */
export function createAddressLimit({ max, windowMs, redis, log }: { max: number; windowMs: number; redis?: Redis; log: FastifyBaseLogger }): AddressLimit {
  const local = new Map<string, number>();
  let localWindow = 0;
  const countLocally = (address: string, window: number) => {
    if (window !== localWindow) {
      local.clear();
      localWindow = window;
    }
    const n = (local.get(address) ?? 0) + 1;
    local.set(address, n);
    return n;
  };
  return {
    async take(address) {
      const window = Math.floor(Date.now() / windowMs);
      if (redis) {
        try {
          const key = `webagency-chat-msg:${window}:${address}`;
          const [[, count]] = (await redis.multi().incr(key).pexpire(key, windowMs * 2).exec()) as [[Error | null, number]];
          return count <= max;
        } catch (err) {
          log.warn({ err: (err as Error).message }, 'chat: shared message limit unavailable, counting locally');
        }
      }
      return countLocally(address, window) <= max;
    },
  };
}
