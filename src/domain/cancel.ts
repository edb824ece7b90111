// Cancelling an order (docs/decisions/321-cancel-and-refund.md): the refund the terms promise, which
// the back office offers as the default. The owner may refund anything from 0 to what was paid.

import { STAGES } from './tracker.ts';

/** "UI Started": design work begins; before it the advance goes back in full, after it nothing. */
export const UI_STARTED_STAGE = STAGES.indexOf('UI Started') + 1;

/** The terms' refund of a cancelled order: the whole advance before "UI Started", nothing after. */
export function defaultCancelRefund(o: { advancePaid: number; completedStages: number; alreadyRefunded?: number }): {
  amount: number;
  reason: 'before_ui_started' | 'after_ui_started';
} {
  if (o.completedStages >= UI_STARTED_STAGE) return { amount: 0, reason: 'after_ui_started' };
  return { amount: Math.max(0, o.advancePaid - (o.alreadyRefunded ?? 0)), reason: 'before_ui_started' };
}

/** The sentence shown beside the default (the terms' rule, said for this order). */
export const DEFAULT_REFUND_REASON = {
  before_ui_started: 'Design work has not started ("UI Started" is not done): the terms refund the whole advance.',
  after_ui_started: 'Design work has started ("UI Started" is done): the terms refund nothing.',
} as const;
