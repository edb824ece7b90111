// Public reads answered from memory: the response is validated against its contract
// schema and serialised once per key and TTL, then sent as is. A bus topic drops every key at once
// on every instance (src/server/lib/invalidation-bus.ts); the TTL bounds staleness if a message is
// lost, and must stay well under the cache-control the route promises.
import type { z } from 'zod';
import type { InvalidationBus } from './invalidation-bus.ts';
import { TtlCache } from './ttl-cache.ts';

export interface CachedRead<K> {
  /** The serialised JSON body for `key`. */
  json(key: K): Promise<string>;
}

export function cachedRead<K extends string, S extends z.ZodType>(opts: {
  schema: S;
  ttlMs: number;
  maxKeys?: number;
  load: (key: K) => Promise<z.input<S>> | z.input<S>;
  invalidateOn?: { bus: InvalidationBus; topic: string };
}): CachedRead<K> {
  const cache = new TtlCache<string>(opts.maxKeys ?? 1, opts.ttlMs);
  const inFlight = new Map<K, Promise<string>>();
  // A load that started before an invalidation must not cache what it read.
  let generation = 0;
  opts.invalidateOn?.bus.subscribe(opts.invalidateOn.topic, () => {
    generation++;
    cache.clear();
    inFlight.clear();
  });
  return {
    json(key) {
      const hit = cache.get(key);
      if (hit !== undefined) return Promise.resolve(hit);
      let pending = inFlight.get(key);
      if (!pending) {
        const seen = generation;
        pending = Promise.resolve(opts.load(key))
          .then((value) => {
            // Validation kept: the same schema the route declares, once per fill instead of per request.
            const body = JSON.stringify(opts.schema.parse(value));
            if (seen === generation) cache.set(key, body);
            return body;
          })
          .finally(() => {
            if (inFlight.get(key) === pending) inFlight.delete(key);
          });
        inFlight.set(key, pending);
      }
      return pending;
    },
  };
}
