import { describe, expect, it } from 'vitest';
import { isDeliveryUrl, isValidWindow } from './admin.ts';

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
