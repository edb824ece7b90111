/**
 * A small bounded in-process cache with expiry. It stores promises, so concurrent requests for the
 * same key share one outside call. Oldest entries are dropped first when full.
 */
export class TtlCache<V> {
  private readonly entries = new Map<string, { value: Promise<V>; expiresAt: number }>();

  constructor(
    private readonly maxEntries: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Returns the cached value or runs `load`; `ttlOf` decides how long the result stays. */
  get(key: string, load: () => Promise<V>, ttlOf: (value: V) => number): Promise<V> {
    const hit = this.entries.get(key);
    if (hit && hit.expiresAt > this.now()) return hit.value;
    if (hit) this.entries.delete(key);
    const value = load();
    this.set(key, value, 30_000);
    void value.then(
      (v) => this.entries.get(key)?.value === value && this.set(key, value, ttlOf(v)),
      () => this.entries.get(key)?.value === value && this.entries.delete(key),
    );
    return value;
  }

  private set(key: string, value: Promise<V>, ttlMs: number) {
    this.entries.delete(key);
    if (ttlMs <= 0) return;
    this.entries.set(key, { value, expiresAt: this.now() + ttlMs });
    if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
  }

  get size() {
    return this.entries.size;
  }
}
