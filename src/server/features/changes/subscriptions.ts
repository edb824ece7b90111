import type { AppDeps } from "../../deps.ts";
import { acceptPaidChange } from "./changes.ts";

/**
 * A change's payment settled: it is accepted and the delivery moves, in the settling transaction
 * (docs/decisions/251-change-due-date.md). Registered before the invoices' subscriber, so the
 * document is issued for an accepted change.
 */
export function subscribeChanges(deps: AppDeps) {
  deps.events.inTransaction("change.paid", (e, tx) => acceptPaidChange(tx, e));
}
