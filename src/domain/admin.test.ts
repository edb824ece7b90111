import { describe, expect, it } from 'vitest';
import { couponState, isDeliveryUrl, isValidWindow } from './admin.ts';

describe('isDeliveryUrl', () => {
  it.each([
    ['https://client.example.com', true],
    ['http://client.example.com/path?q=1', true],
    ['HTTPS://CLIENT.EXAMPLE.COM', true],
    ['javascript:alert(1)', false],
    ['data:text/html,<b>x</b>', false],
    ['ftp://client.example.com', false],
    ['//client.example.com', false],
    ['client.example.com', false],
    ['https://', false],
    ['https://exa mple.com', false],
    [`https://example.com/${'a'.repeat(2000)}`, false],
  ])('%s → %s', (url, ok) => {
    expect(isDeliveryUrl(url)).toBe(ok);
  });
});

describe('isValidWindow', () => {
  it('wants the end strictly after the start, and accepts open windows', () => {
    expect(isValidWindow('2026-01-01T00:00:00Z', '2026-02-01T00:00:00Z')).toBe(true);
    expect(isValidWindow('2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z')).toBe(false);
    expect(isValidWindow('2026-02-01T00:00:00Z', '2026-01-01T00:00:00Z')).toBe(false);
    expect(isValidWindow(null, '2026-01-01T00:00:00Z')).toBe(true);
    expect(isValidWindow('2026-01-01T00:00:00Z', undefined)).toBe(true);
  });
});

describe('couponState', () => {
  const now = new Date('2026-06-15T12:00:00Z');
  const c = { active: true, validFrom: null, validUntil: null, maxUses: null, redemptions: 0 };
  it('gives one state: expired wins over switched off, switched off over scheduled, then used up', () => {
    expect(couponState(c, now)).toBe('active');
    expect(couponState({ ...c, validUntil: '2026-06-15T12:00:00Z' }, now)).toBe('expired');
    expect(couponState({ ...c, active: false, validUntil: new Date('2026-01-01T00:00:00Z') }, now)).toBe('expired');
    expect(couponState({ ...c, active: false }, now)).toBe('inactive');
    expect(couponState({ ...c, active: false, validFrom: '2026-07-01T00:00:00Z' }, now)).toBe('inactive');
    expect(couponState({ ...c, validFrom: '2026-07-01T00:00:00Z', validUntil: '2026-08-01T00:00:00Z' }, now)).toBe('scheduled');
    expect(couponState({ ...c, maxUses: 3, redemptions: 3 }, now)).toBe('used_up');
    expect(
      couponState({ ...c, maxUses: 3, redemptions: 2, validFrom: '2026-06-01T00:00:00Z', validUntil: '2026-06-16T00:00:00Z' }, now),
    ).toBe('active');
  });
});
