import { describe, expect, it } from 'vitest';
import { isPrivateIp } from './ip-geolocation.ts';

describe('isPrivateIp', () => {
  it.each(['127.0.0.1', '::1', '10.1.2.3', '192.168.0.9', '172.16.0.1', '172.31.255.1', '::ffff:127.0.0.1', 'fd12:3456::1', 'fe80::1'])(
    '%s is private',
    (ip) => expect(isPrivateIp(ip)).toBe(true),
  );
  it.each(['8.8.8.8', '172.32.0.1', '203.0.113.7', '2001:db8::1'])('%s is public', (ip) => expect(isPrivateIp(ip)).toBe(false));
});
