import { describe, expect, it } from 'vitest';
import { TtlCache } from './ttl-cache.ts';

describe('TtlCache', () => {
  it('keeps a value for its ttl, a shorter one when asked, and drops the least recently used when full', () => {
    let now = 0;
    const cache = new TtlCache<string>(2, 1000, () => now);
    cache.set('a', 'A');
    cache.set('b', 'B', 100);
    now = 100;
    expect([cache.get('a'), cache.get('b')]).toEqual(['A', undefined]);
    cache.set('b', 'B', 5000); // never longer than the cache's own ttl
    cache.get('a'); // a is now the most recently used
    cache.set('c', 'C');
    expect([cache.get('a'), cache.get('b'), cache.get('c')]).toEqual(['A', undefined, 'C']);
    now = 1001;
    expect(cache.get('a')).toBeUndefined();
    cache.set('d', 'D', 0);
    expect(cache.get('d')).toBeUndefined();
  });

  it('deletes by key, by a test on the value, and all at once', () => {
    const cache = new TtlCache<{ user: string }>(10, 1000);
    for (const [k, user] of [
      ['s1', 'u1'],
      ['s2', 'u1'],
      ['s3', 'u2'],
    ])
      cache.set(k!, { user: user! });
    cache.deleteWhere((v) => v.user === 'u1');
    expect(cache.size).toBe(1);
    cache.delete('s3');
    expect(cache.get('s3')).toBeUndefined();
    cache.set('s4', { user: 'u3' });
    cache.clear();
    expect(cache.size).toBe(0);
  });

  it('shares one load between concurrent callers and keeps the value for the ttl the value asks', async () => {
    let now = 0;
    const cache = new TtlCache<Promise<string>>(10, 60_000, () => now);
    let loads = 0;
    const load = async () => `v${++loads}`;
    const [a, b] = await Promise.all([cache.getOrLoad('k', load, () => 1000), cache.getOrLoad('k', load, () => 1000)]);
    expect([a, b, loads]).toEqual(['v1', 'v1', 1]);
    now = 999;
    expect(await cache.getOrLoad('k', load, () => 1000)).toBe('v1');
    now = 1001;
    expect(await cache.getOrLoad('k', load, () => 1000)).toBe('v2');
  });

  it('forgets failed loads and drops the oldest entry when full', async () => {
    const cache = new TtlCache<Promise<number>>(2, 1000);
    await expect(
      cache.getOrLoad(
        'bad',
        () => Promise.reject(new Error('x')),
        () => 1000,
      ),
    ).rejects.toThrow('x');
    await Promise.resolve();
    expect(cache.size).toBe(0);
    for (const k of ['a', 'b', 'c'])
      await cache.getOrLoad(
        k,
        async () => 1,
        () => 1000,
      );
    expect(cache.size).toBe(2);
  });
});
