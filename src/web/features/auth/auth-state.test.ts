import { describe, expect, it } from 'vitest';
import { afterDetails, safeReturnPath } from './auth-state.ts';

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

describe('afterDetails (where the details form goes once the account exists)', () => {
  it('sends an invited staff member signing up to the back office, not the customer dashboard', () => {
    expect(afterDetails('/dashboard', 'staff')).toBe('/admin');
    expect(afterDetails(undefined, 'staff')).toBe('/admin');
  });
  it('keeps a customer on the dashboard and any chosen destination for everyone', () => {
    expect(afterDetails('/dashboard', 'customer')).toBe('/dashboard');
    expect(afterDetails(undefined, null)).toBe('/dashboard');
    expect(afterDetails('/pricing', 'staff')).toBe('/pricing');
    expect(afterDetails('/status/ORD-1', 'staff')).toBe('/status/ORD-1');
    expect(afterDetails('/', 'customer')).toBe('/');
  });
});
