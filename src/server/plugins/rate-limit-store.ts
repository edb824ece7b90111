import type { Redis } from 'ioredis';

// Rate-limit counters keyed by OPERATION rather than by registered path
// (docs/decisions/091-rate-limit-keying.md). @fastify/rate-limit gives every registered route its
// own store, so an operation reachable under two spellings (`/chat/chat/` and `/chat/chat`) had two
// counters and twice the limit. Here a route's counters live under its operation key: the method
// (HEAD counted as GET) and the path without a trailing slash. Two routes that are one operation
// share one counter, in this process or in Redis.

interface Counted {
  current: number;
  ttl: number;
}
type Callback = (err: Error | null, result?: Counted) => void;

interface RouteParams {
  routeInfo?: { method?: string | string[]; url?: string; config?: { operation?: string } };
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The operation a route's rate-limit counter belongs to, when it is not its own method and path:
     * a route reachable under a path that differs by more than a trailing slash (POST / is
     * chat/start for the spec's guest chat page, decision 107) names the operation it is.
     */
    operation?: string;
  }
}

/** "POST /api/v1/chat/chat" for both spellings of the assistant's path. */
export function operationKey(method: string | string[] | undefined, url: string | undefined): string {
  const m = (Array.isArray(method) ? method.join(',') : (method ?? 'ALL')).replace(/\bHEAD\b/, 'GET');
  const path = (url ?? '').length > 1 ? (url ?? '').replace(/\/+$/, '') : (url ?? '/');
  return `${m} ${path}`;
}

export interface Counter {
  incr(key: string, timeWindowMs: number): Promise<Counted>;
}

/**
 * Fixed windows in this process's memory, bounded so a flood of addresses cannot grow it forever.
 * When full, windows that have ended are swept out first (at most once a second, so a flood of
 * live keys does not make every request scan the map); only if every window is still running is
 * the one that started first dropped — its visitor starts a new count. Resetting a live counter
 * therefore takes `maxKeys` distinct keys inside one window (decision 091).
 */
export function memoryCounter(maxKeys = 50_000, clock: () => number = Date.now): Counter {
  // Insertion order is start order: a window is deleted and re-added when it restarts.
  const windows = new Map<string, { count: number; resetAt: number }>();
  let nextSweepAt = 0;
  const makeRoom = (now: number) => {
    if (windows.size < maxKeys) return;
    if (now >= nextSweepAt) {
      nextSweepAt = now + 1000;
      for (const [k, w] of windows) if (w.resetAt <= now) windows.delete(k);
    }
    while (windows.size >= maxKeys) windows.delete(windows.keys().next().value!);
  };
  return {
    async incr(key, timeWindowMs) {
      const now = clock();
      let w = windows.get(key);
      if (!w || w.resetAt <= now) {
        windows.delete(key);
        makeRoom(now);
        w = { count: 0, resetAt: now + timeWindowMs };
        windows.set(key, w);
      }
      w.count += 1;
      return { current: w.count, ttl: w.resetAt - now };
    },
  };
}

const INCR_SCRIPT = `
local current = redis.call('INCR', KEYS[1])
if current == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]); ttl = tonumber(ARGV[1]) end
return {current, ttl}`;

/** Fixed windows shared by every instance through Redis (INCR + PEXPIRE in one script). */
function redisCounter(redis: Redis, nameSpace: string): Counter {
  return {
    async incr(key, timeWindowMs) {
      const [current, ttl] = (await redis.eval(INCR_SCRIPT, 1, nameSpace + key, String(timeWindowMs))) as [number, number];
      return { current, ttl };
    },
  };
}

/** The `store` class handed to @fastify/rate-limit: `child()` is called once per limited route. */
export function operationKeyedStore(options: { redis?: Redis; nameSpace: string }) {
  const local = memoryCounter();
  const shared = options.redis ? redisCounter(options.redis, options.nameSpace) : undefined;
  // While Redis does not answer, this process's own count decides: an outage must cost sharing,
  // not every limited route (they answered 500 before, in the fault tests).
  const counter: Counter = shared ? { incr: (key, ms) => shared.incr(key, ms).catch(() => local.incr(key, ms)) } : local;
  class OperationStore {
    constructor(
      _params?: unknown,
      private readonly prefix = 'global|',
    ) {}
    incr(key: string, cb: Callback, timeWindow: number) {
      counter.incr(this.prefix + key, timeWindow).then(
        (r) => cb(null, r),
        (err: Error) => cb(err),
      );
    }
    // Typed as routeOptions by the plugin; at run time it is the route's merged limit parameters,
    // whose routeInfo is the route.
    child(routeOptions: object) {
      const params = routeOptions as RouteParams;
      const operation = params.routeInfo?.config?.operation ?? operationKey(params.routeInfo?.method, params.routeInfo?.url);
      return new OperationStore(undefined, `${operation}|`);
    }
  }
  return OperationStore;
}
