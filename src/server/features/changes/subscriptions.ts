import type { AppDeps } from '../../deps.ts';
import { acceptPaidChange } from './changes.ts';

/**
 * A change's payment settled: it is accepted and the delivery moves, in the settling transaction
 * (docs/decisions/251-change-due-date.md). What follows an accepted change (its document, then its
 * receipt) reacts to the `change.accepted` this publishes, not to `change.paid`, so it never depends
 * on the order in which subscribers are registered (docs/decisions/260-change-events-and-waiting.md).
 */
export function subscribeChanges(deps: AppDeps) {
  deps.events.inTransaction('change.paid', (e, tx) => acceptPaidChange(deps, tx, e));
}
