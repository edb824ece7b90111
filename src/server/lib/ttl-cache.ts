/**
 * A small in-memory cache: entries expire after `ttlMs`, and past `max` entries the oldest is
 * dropped (a Map keeps insertion order; a hit moves the entry to the end, so it is an LRU).
 */
export class TtlCache<V> {
  private readonly entries = new Map<string, { value: V; until: number }>();

  constructor(
    private readonly max: number,
    private readonly ttlMs: number,
  ) {}

  get(key: string): V | undefined {
    const e = this.entries.get(key);
    if (!e) return undefined;
    this.entries.delete(key);
    if (e.until <= Date.now()) return undefined;
    this.entries.set(key, e);
    return e.value;
  }

  /** `ttlMs` may shorten the default (e.g. a session that expires sooner). */
  set(key: string, value: V, ttlMs = this.ttlMs) {
    this.entries.delete(key);
    this.entries.set(key, { value, until: Date.now() + Math.min(ttlMs, this.ttlMs) });
    if (this.entries.size > this.max) this.entries.delete(this.entries.keys().next().value!);
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
}
