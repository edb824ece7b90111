/**
 * The one small in-memory cache of the server: entries expire after `ttlMs` (a `set` may shorten
 * it), and past `max` entries the oldest is dropped (a Map keeps insertion order; a hit moves the
 * entry to the end, so it is an LRU). `getOrLoad` caches the promise of a load, so concurrent
 * callers for one key share one outside call. The clock is a parameter for tests.
 */
/** How long a load that never settles keeps its key (the outside calls have their own timeouts). */
const LOADING_MS = 30_000;

export class TtlCache<V> {
  private readonly entries = new Map<string, { value: V; until: number }>();

  constructor(
    private readonly max: number,
    private readonly ttlMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  get(key: string): V | undefined {
    const e = this.entries.get(key);
    if (!e) return undefined;
    this.entries.delete(key);
    if (e.until <= this.now()) return undefined;
    this.entries.set(key, e);
    return e.value;
  }

  /** `ttlMs` may shorten the default (e.g. a session that expires sooner); 0 or less stores nothing. */
  set(key: string, value: V, ttlMs = this.ttlMs) {
    this.entries.delete(key);
    if (ttlMs <= 0) return;
    this.entries.set(key, { value, until: this.now() + Math.min(ttlMs, this.ttlMs) });
    if (this.entries.size > this.max) this.entries.delete(this.entries.keys().next().value!);
  }

  /**
   * The cached value of `key`, or `load()`'s, stored at once so that callers arriving meanwhile
   * share it. Once settled, `ttlOf` decides how long a value stays (capped by the cache's ttl); a
   * failed load is forgotten, so the next caller tries again.
   */
  getOrLoad<T>(this: TtlCache<Promise<T>>, key: string, load: () => Promise<T>, ttlOf: (value: T) => number): Promise<T> {
    const hit = this.get(key);
    if (hit) return hit;
    const value = load();
    this.set(key, value, LOADING_MS);
    void value.then(
      (v) => this.entries.get(key)?.value === value && this.set(key, value, ttlOf(v)),
      () => this.entries.get(key)?.value === value && this.entries.delete(key),
    );
    return value;
  }

  delete(key: string) {
    this.entries.delete(key);
  }

  deleteWhere(test: (value: V) => boolean) {
    for (const [key, e] of this.entries) if (test(e.value)) this.entries.delete(key);
  }

  clear() {
    this.entries.clear();
  }

  get size() {
    return this.entries.size;
  }
}
