import { describe, expect, it } from 'vitest';
import { getAdminOrders, getAdminOrdersById, postAdminOrdersStagesNext } from '../../contract/admin-orders.ts';
import { getAdminOverview } from '../../contract/admin-overview.ts';
import { operationUrl } from './call.ts';

describe('operationUrl', () => {
  it('puts the encoded params into the path', () => {
    expect(operationUrl(getAdminOrdersById, { params: { id: 'ORD 1/2?' } })).toBe('/api/v1/admin/orders/ORD%201%2F2%3F');
    expect(operationUrl(postAdminOrdersStagesNext, { params: { id: 'ORD-7' } })).toBe('/api/v1/admin/orders/ORD-7/stages/next');
  });

  it('appends the query, leaving out undefined and null and repeating arrays', () => {
    expect(operationUrl(getAdminOrders, { query: { q: 'a&b', page: 2, stage: undefined } })).toBe('/api/v1/admin/orders?q=a%26b&page=2');
    expect(operationUrl({ path: '/api/v1/x' }, { query: { tag: ['a', 'b'], none: null } })).toBe('/api/v1/x?tag=a&tag=b');
    expect(operationUrl(getAdminOverview)).toBe('/api/v1/admin/overview');
  });

  it('refuses a missing param rather than calling a wrong URL', () => {
    expect(() => operationUrl(getAdminOrdersById, { params: {} })).toThrow(/param "id" is missing/);
    expect(() => operationUrl(getAdminOrdersById, { params: { id: '' } })).toThrow(/param "id" is missing/);
  });
});

// The typing of call() is tested by tsc: call.test-d.ts.
