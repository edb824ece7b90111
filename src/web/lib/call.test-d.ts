import { expectTypeOf } from 'vitest';
import { getAdminOrders, getAdminOrdersById, postAdminOrdersStagesNext, type OrderDetailResponse } from '../../contract/admin-orders.ts';
import { getAdminOverview } from '../../contract/admin-overview.ts';
import type { OperationInput, OperationOutput } from '../../contract/operation.ts';
import { call } from './call.ts';

// Type tests of call(): checked by `npm run typecheck` (tsc over src/), never run. Each
// `@ts-expect-error` fails the type check when the error it expects goes away.

expectTypeOf<OperationOutput<typeof getAdminOrdersById>>().toEqualTypeOf<OrderDetailResponse>();
expectTypeOf<OperationInput<typeof postAdminOrdersStagesNext>>().toHaveProperty('params');
expectTypeOf<OperationInput<typeof postAdminOrdersStagesNext>>().toHaveProperty('body');
expectTypeOf(call(getAdminOrdersById, { params: { id: 'ORD1' } })).resolves.toEqualTypeOf<OrderDetailResponse>();

export function callTakesExactlyItsInput() {
  void call(getAdminOverview);
  void call(getAdminOrdersById, { params: { id: 'ORD1' } });
  void call(getAdminOrders, { query: { page: 2 } });
  // @ts-expect-error the params are required
  void call(getAdminOrdersById);
  // @ts-expect-error a param of another name
  void call(getAdminOrdersById, { params: { orderId: 'ORD1' } });
  // @ts-expect-error the body's field is a string
  void call(postAdminOrdersStagesNext, { params: { id: 'ORD1' }, body: { note: 5 } });
}
