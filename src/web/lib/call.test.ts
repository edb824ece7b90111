import { describe, expect, expectTypeOf, it } from 'vitest';
import { getAdminOrders, getAdminOrdersById, postAdminOrdersStagesNext, type OrderDetailResponse } from '../../contract/admin-orders.ts';
import { getAdminOverview } from '../../contract/admin-overview.ts';
import type { OperationInput, OperationOutput } from '../../contract/operation.ts';
import { call, operationUrl } from './call.ts';

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

describe('call typing', () => {
  it('takes exactly the input the operation names and answers its response type', () => {
    expectTypeOf<OperationOutput<typeof getAdminOrdersById>>().toEqualTypeOf<OrderDetailResponse>();
    expectTypeOf<OperationInput<typeof postAdminOrdersStagesNext>>().toHaveProperty('params');
    expectTypeOf<OperationInput<typeof postAdminOrdersStagesNext>>().toHaveProperty('body');
    // Never executed: these lines exist for the type checker (tsc fails if an error goes away).
    const typeChecks = () => {
      void call(getAdminOverview);
      void call(getAdminOrdersById, { params: { id: 'ORD1' } });
      void call(getAdminOrders, { query: { page: 2 } });
      // @ts-expect-error the params are required
      void call(getAdminOrdersById);
      // @ts-expect-error a param of another name
      void call(getAdminOrdersById, { params: { orderId: 'ORD1' } });
      // @ts-expect-error the body's field is a string
      void call(postAdminOrdersStagesNext, { params: { id: 'ORD1' }, body: { note: 5 } });
    };
    expect(typeof typeChecks).toBe('function');
  });
});
