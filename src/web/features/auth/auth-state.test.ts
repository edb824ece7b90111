import { describe, expect, it } from 'vitest';
import { safeReturnPath } from './auth-state.ts';

describe('safeReturnPath (sign-in returns only to this site)', () => {
  it('keeps a path on this site with its query and fragment', () => {
    expect(safeReturnPath('/admin/orders/ord_123')).toBe('/admin/orders/ord_123');
    expect(safeReturnPath('/admin/funnel?weeks=4#table')).toBe('/admin/funnel?weeks=4#table');
    expect(safeReturnPath('/status/a%2Fb')).toBe('/status/a%2Fb');
  });

  it.each([
    '//evil.com',
    '//evil.com/admin',
    '/\\evil.com',
    '\\\\evil.com',
    'https://evil.example/admin',
    'http:/evil.example',
    'javascript:alert(1)',
    '/admin/..//evil.com',
    '/\t/evil.com',
    '/\n/evil.com',
    'admin',
    '',
    `/${'a'.repeat(2001)}`,
    '/login',
    '/signup/enterDetails',
    '/logout',
  ])('refuses %j', (hostile) => {
    expect(safeReturnPath(hostile)).toBeNull();
  });

  it('refuses what is not a string', () => {
    expect(safeReturnPath(null)).toBeNull();
    expect(safeReturnPath({ toString: () => '/admin' })).toBeNull();
  });
});
