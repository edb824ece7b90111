import type { AppDeps } from '../../deps.ts';
import { watchDeliveryLink } from './sites.ts';

// Site care's reactions (docs/decisions/325-site-checks-in-the-job-pass.md): a delivered order
// watches its delivery link from the delivery's own transaction.
export function subscribeSiteCare(deps: AppDeps) {
  deps.events.inTransaction('order.delivered', async (e, tx) => {
    await watchDeliveryLink(deps, tx, e, e.at);
  });
}
