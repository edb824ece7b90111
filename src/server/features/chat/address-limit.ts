import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { FastifyBaseLogger } from 'fastify';

export interface AddressLimit {
  /** Counts one message from `address`; false when it would put the address over its limit. */
  take(address: string): Promise<boolean>;
}

/**
 * Chat messages per visitor address: the per-socket bucket alone let 20 sockets from
 * one address store 160 messages in a second. A sliding window (decision 105): a message is taken
 * only if fewer than `max` messages from the address were taken in the `windowMs` before it, so no
 * span of `windowMs` ever holds more than `max` — the fixed windows it replaces let a flood straddling
 * a boundary store twice the limit. Only taken messages are remembered: a refused
 * flood does not lock the address out for longer.
 *
 * Kept in Redis when REDIS_URL is set (one Lua script per message, so every instance shares one log
 * and the check-and-add is atomic), else in this process. If Redis does not answer, the local log
 * decides: a Redis outage must not stop the chat.
 */
export function createAddressLimit({
  max,
  windowMs,
  redis,
  log,
  now = Date.now,
}: {
  max: number;
  windowMs: number;
  redis?: Redis;
  log: FastifyBaseLogger;
  now?: () => number;
}): AddressLimit {
  const local = localLog(max, windowMs);
  const shared = redis ? redisLog(redis, max, windowMs) : undefined;
  return {
    async take(address) {
      const at = now();
      if (shared) {
        try {
          return await shared(address, at);
        } catch (err) {
          log.warn({ err: (err as Error).message }, 'chat: shared message limit unavailable, counting locally');
        }
      }
      return local(address, at);
    },
  };
}

/**
 * The times of the messages taken per address in the last window, oldest first: at most `max`
 * numbers per address. Addresses whose newest message left the window are swept once per window,
 * so the map holds only addresses that wrote recently.
 */
function localLog(max: number, windowMs: number) {
  const taken = new Map<string, number[]>();
  let nextSweep = 0;
  return (address: string, at: number): boolean => {
    if (at >= nextSweep) {
      nextSweep = at + windowMs;
      for (const [a, times] of taken) if (times[times.length - 1]! <= at - windowMs) taken.delete(a);
    }
    let times = taken.get(address);
    if (!times) taken.set(address, (times = []));
    while (times.length > 0 && times[0]! <= at - windowMs) times.shift();
    if (times.length >= max) return false;
    times.push(at);
    return true;
  };
}

// A sorted set per address: members are messages, scores their times. Drop what left the window,
// count, add if under the limit, and let the key expire a window after its newest message.
const SLIDING_WINDOW_SCRIPT = `
local at = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', at - window)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[3]) then return 0 end
redis.call('ZADD', KEYS[1], at, ARGV[4])
redis.call('PEXPIRE', KEYS[1], window)
return 1`;

/**
 * The shared log. Times are this instance's clock (instances are NTP-synchronised; a skew of s ms
 * shifts one instance's window by s ms). Members are unique per instance and message.
 */
function redisLog(redis: Redis, max: number, windowMs: number) {
  const instance = randomBytes(6).toString('base64url');
  let seq = 0;
  return async (address: string, at: number): Promise<boolean> => {
    const result = await redis.eval(
      SLIDING_WINDOW_SCRIPT,
      1,
      `webagency-chat-msg:${address}`,
      String(at),
      String(windowMs),
      String(max),
      `${instance}:${++seq}`,
    );
    return result === 1;
  };
}
