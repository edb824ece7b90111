// Spec §4 "Progress tracker": the 15 stages, in order. Stage 1 and 14 are completed by payments,
// the others by the founder (DESIGN §5 "Tracker").
export const STAGES = [
  'Advance Payment',
  'UI Discussion',
  'UI Started',
  'UI Completed',
  'UI Review',
  'Initial Quality Check',
  'Development Started',
  'Development Completed',
  'Precision Review',
  'Deployment Started',
  'Deployment Completed',
  'Final Review',
  'Launch Readiness',
  'Remaining Payment',
  'Website Delivery',
] as const;

export const STAGE_COUNT = STAGES.length;
export const ADVANCE_STAGE = 1;
export const REMAINING_PAYMENT_STAGE = 14;
export const DELIVERY_STAGE = 15;
export const NOT_COMPLETED = 'To be completed';

/** Stages that only a verified payment may complete. */
export const isPaymentStage = (stage: number) => stage === ADVANCE_STAGE || stage === REMAINING_PAYMENT_STAGE;

/** Spec §4: the bar shows (completed_steps + 1) / 15, never more than full. */
export const progressFraction = (completedSteps: number) => Math.min(completedSteps + 1, STAGE_COUNT) / STAGE_COUNT;

/** Spec §2 date format: English (US), long month, day, year, 12-hour time with minutes, in UTC. */
export function formatStageDate(date: Date | string): string {
  const d = typeof date === 'string' ? new Date(date) : date;
  return d.toLocaleString('en-US', {
    timeZone: 'UTC',
    year: 'numeric',
    month: 'long',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    hour12: true,
  });
}
