import { describe, expect, it } from 'vitest';
import { TtlCache } from './ttl-cache.ts';
import { isPrivateIp } from './ip-geolocation.ts';

describe('TtlCache', () => {
  it('shares one load between concurrent callers and keeps the value for its ttl', async () => {
    let now = 0;
    const cache = new TtlCache<string>(10, () => now);
    let loads = 0;
    const load = async () => `v${++loads}`;
    const [a, b] = await Promise.all([cache.get('k', load, () => 1000), cache.get('k', load, () => 1000)]);
    expect([a, b, loads]).toEqual(['v1', 'v1', 1]);
    now = 999;
    expect(await cache.get('k', load, () => 1000)).toBe('v1');
    now = 1001;
    expect(await cache.get('k', load, () => 1000)).toBe('v2');
  });

  it('forgets failed loads and drops the oldest entry when full', async () => {
    const cache = new TtlCache<number>(2);
    await expect(cache.get('bad', () => Promise.reject(new Error('x')), () => 1000)).rejects.toThrow('x');
    await Promise.resolve();
    expect(cache.size).toBe(0);
    for (const k of ['a', 'b', 'c']) await cache.get(k, async () => 1, () => 1000);
    expect(cache.size).toBe(2);
  });
});

describe('isPrivateIp', () => {
  it.each(['127.0.0.1', '::1', '10.1.2.3', '192.168.0.9', '172.16.0.1', '172.31.255.1', '::ffff:127.0.0.1', 'fd12:3456::1', 'fe80::1'])('%s is private', (ip) =>
    expect(isPrivateIp(ip)).toBe(true),
  );
  it.each(['8.8.8.8', '172.32.0.1', '203.0.113.7', '2001:db8::1'])('%s is public', (ip) => expect(isPrivateIp(ip)).toBe(false));
});
