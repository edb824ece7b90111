import type { AppDeps } from '../../deps.ts';
import { completePaymentStages } from './complete-next-stage.ts';

/** A settled payment completes its stages through the tracker, the only writer of stage rows (decision 100). */
export function subscribeTracker(deps: AppDeps) {
  deps.events.inTransaction('payment.settled', (e, tx) => completePaymentStages(deps, tx, e));
}
