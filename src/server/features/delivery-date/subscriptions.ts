import type { AppDeps } from '../../deps.ts';
import { recordUiApproval } from './record-ui-approval.ts';

/**
 * The customer's approval of a `ui` review round sets the delivery date, in the deciding
 * transaction: the approval and the promise are stored together or not at all (decisions 147, 150).
 * Only the first approval counts (recordUiApproval keeps it), so a later round or a replay moves nothing.
 */
export function subscribeDeliveryDate(deps: AppDeps) {
  deps.events.inTransaction('review.decided', async (e, tx) => {
    if (e.kind !== 'ui' || e.decision !== 'approve') return;
    await recordUiApproval(tx, e.orderId, e.at, deps.config.DELIVERY_DAYS_AFTER_UI_APPROVAL);
  });
}
