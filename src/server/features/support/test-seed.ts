import { DELIVERY_STAGE } from '../../../domain/tracker.ts';
import type { BuiltApp } from '../../app.ts';
import type { TestApp } from '../../../../tests/helpers/test-app.ts';
import { seedPaidOrder, seedRemainingPayment } from '../admin/test-seed.ts';
import { completeNextStage } from '../tracker/complete-next-stage.ts';

// Test seeding of delivered orders through the features' own operations (payments, the tracker).

/** A customer whose order is delivered: the rest paid and every stage completed, up to "Website Delivery". */
export async function seedDeliveredOrder(app: BuiltApp, email: string) {
  const { customer, orderId } = await seedPaidOrder(app as TestApp, email);
  await seedRemainingPayment(app as TestApp, customer, orderId);
  for (let i = 0; i < 20; i++) {
    const done = await completeNextStage(app.deps, orderId, { deliveryUrl: 'https://site.example.com' });
    if (done.completedSteps === DELIVERY_STAGE) return { customer, orderId };
  }
  throw new Error('seedDeliveredOrder: the order was not delivered');
}
