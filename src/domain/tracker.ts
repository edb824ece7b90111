// Spec §4 "Progress tracker": the 15 stages, in order. Stage 1 and 14 are completed by payments,
// the others by the founder.
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

/**
 * "UI Discussion completed", but "UI Completed" as it is: a stage named for its completion is not
 * completed twice (the stage e-mail's subject said "UI Completed completed").
 */
export const stageDoneText = (name: string) => (/\bcompleted$/i.test(name) ? name : `${name} completed`);

/** Stages that only a verified payment may complete. */
export const isPaymentStage = (stage: number) => stage === ADVANCE_STAGE || stage === REMAINING_PAYMENT_STAGE;

/**
 * Spec §3/§4: on the wire `completed_steps` is the INDEX of the last completed stage (0 once the
 * advance is paid, 14 once the website is delivered) — the bar shows (completed_steps + 1)/15 and
 * steps up to completed_steps are ticked. Inside the server a count of completed stages is kept.
 */
export const completedStepsOnWire = (completedCount: number) => Math.max(Math.min(completedCount, STAGE_COUNT), 1) - 1;

/** How many stages are done for a wire `completed_steps` (the n of 'n/15 Completed'). */
export const stagesDone = (completedSteps: number) => Math.max(0, Math.min(completedSteps + 1, STAGE_COUNT));

/**
 * A date a customer reads (tracker, My Orders, e-mails, invoices): the spec's format, saying its
 * time zone. UTC unless the date belongs to another zone — an invoice is dated in its financial
 * year's zone (decision 094), named the same way: "April 1, 2026 at 12:30 AM Asia/Kolkata".
 */
export function formatCustomerDate(date: Date | string, timeZone = 'UTC'): string {
  const d = typeof date === 'string' ? new Date(date) : date;
  if (timeZone !== 'UTC') return `${zoneFormat(timeZone).format(d)} ${timeZone}`;
  // The text shows minutes at most, so one minute is one text: a delivered order's status formats its
  // fifteen stage dates on every read, and Intl's format was the read's largest own cost
  // (docs/decisions/291-signed-in-reads-one-statement.md). Bounded: emptied past 10,000 minutes.
  const minute = Math.floor(d.getTime() / 60_000);
  let text = utcTexts.get(minute);
  if (text === undefined) {
    if (utcTexts.size >= 10_000) utcTexts.clear();
    utcTexts.set(minute, (text = `${stageDateFormat.format(d)} UTC`));
  }
  return text;
}
const utcTexts = new Map<number, string>();

const zoneFormats = new Map<string, Intl.DateTimeFormat>();
function zoneFormat(timeZone: string): Intl.DateTimeFormat {
  let f = zoneFormats.get(timeZone);
  if (!f) zoneFormats.set(timeZone, (f = new Intl.DateTimeFormat('en-US', { ...STAGE_DATE_OPTIONS, timeZone })));
  return f;
}

/** Spec §2 date format: English (US), long month, day, year, 12-hour time with minutes, in UTC. */
// One formatter for every call: toLocaleString with options builds a new one each time (5–9 % of
// a signed-in order list in a CPU profile of the server). Same output.
const STAGE_DATE_OPTIONS: Intl.DateTimeFormatOptions = {
  timeZone: 'UTC',
  year: 'numeric',
  month: 'long',
  day: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
  hour12: true,
};
const stageDateFormat = new Intl.DateTimeFormat('en-US', STAGE_DATE_OPTIONS);

export function formatStageDate(date: Date | string): string {
  return stageDateFormat.format(typeof date === 'string' ? new Date(date) : date);
}
