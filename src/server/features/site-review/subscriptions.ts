import type { AppDeps } from '../../deps.ts';
import { revokeSiteTokens } from './site-token.ts';

/** A decided round's site tokens are revoked in the deciding transaction (decision 240). */
export function subscribeSiteReview(deps: AppDeps) {
  deps.events.inTransaction('review.decided', async (r, tx) => {
    await revokeSiteTokens(tx, r.reviewId, r.at);
  });
}
