// Spec §4 "Countdown": the banner counts down every second to the promotion's end, then shows
// 'Offer expired!'. Pure arithmetic, shared by the banner and its tests.

export interface Countdown {
  expired: boolean;
  days: number;
  hours: number;
  minutes: number;
  seconds: number;
}

export const EXPIRED_TEXT = 'Offer expired!';

/** Whole days, hours, minutes and seconds from `nowMs` until `endsAtMs` (rounded down). */
export function countdown(endsAtMs: number, nowMs: number): Countdown {
  const left = Math.floor((endsAtMs - nowMs) / 1000);
  if (!Number.isFinite(left) || left < 0) return { expired: true, days: 0, hours: 0, minutes: 0, seconds: 0 };
  return {
    expired: false,
    days: Math.floor(left / 86_400),
    hours: Math.floor((left % 86_400) / 3_600),
    minutes: Math.floor((left % 3_600) / 60),
    seconds: left % 60,
  };
}

/** '12d 03h 04m 05s', or 'Offer expired!'. */
export function formatCountdown(c: Countdown): string {
  if (c.expired) return EXPIRED_TEXT;
  const two = (n: number) => String(n).padStart(2, '0');
  return `${c.days}d ${two(c.hours)}h ${two(c.minutes)}m ${two(c.seconds)}s`;
}

/** What the banner's timer reads: the countdown, or 'No end date' for a promotion without one
 * (`left` is null until the browser's clock has been read). Shared by the banner and its DOM island. */
export function bannerTimerText(endsAtMs: number | null, left: Countdown | null): string {
  if (endsAtMs === null) return 'No end date';
  return left ? formatCountdown(left) : '';
}

/** A promotion with no end never expires; otherwise it is active until its end (inclusive second). */
export function isPromotionActive(endsAt: string | null, nowMs: number): boolean {
  if (endsAt === null) return true;
  return !countdown(Date.parse(endsAt), nowMs).expired;
}
