// Site care's rules without I/O (docs/decisions/325–327): the up/down state of a watched site,
// the expiry warnings, the days left, and the months and days of INVOICE_TIME_ZONE.

const DAY_MS = 86_400_000;

/** A site is down after this many failed checks in a row… */
export const FAILURES_TO_OPEN = 2;
/** …and up again after one success. */
export const SUCCESSES_TO_CLOSE = 1;
/** A flapping site sends at most one up/down mail per this many minutes. */
export const ALERT_QUIET_MINUTES = 30;

export type WatchState = 'unknown' | 'up' | 'down';

export interface StateChange {
  state: WatchState;
  failStreak: number;
  /** The site went down with this check: an incident opens. */
  opened: boolean;
  /** The site came back with this check: the open incident closes. */
  closed: boolean;
}

/** The state after one check: down after FAILURES_TO_OPEN failures in a row, up after one success. */
export function nextState(prev: { state: WatchState; failStreak: number }, ok: boolean): StateChange {
  if (ok) return { state: 'up', failStreak: 0, opened: false, closed: prev.state === 'down' };
  const failStreak = prev.failStreak + 1;
  if (prev.state !== 'down' && failStreak >= FAILURES_TO_OPEN) return { state: 'down', failStreak, opened: true, closed: false };
  return { state: prev.state, failStreak, opened: false, closed: false };
}

/** Whole days from `now` to `at` (negative once past), rounded down. */
export const daysLeft = (at: Date, now: Date) => Math.floor((at.getTime() - now.getTime()) / DAY_MS);

/**
 * The warning due with `left` days to go: the smallest threshold reached and not warned yet
 * (`warned` is the smallest threshold already warned for this expiry, null for none). Several
 * thresholds passed at once (a first check 5 days before) send one warning, the smallest.
 */
export function warningDue(left: number, thresholds: readonly number[], warned: number | null): number | null {
  const reached = thresholds.filter((t) => left <= t && (warned === null || t < warned));
  return reached.length ? Math.min(...reached) : null;
}

/** An uptime percentage with 2 decimals from checks and failures; null without checks. */
export function uptimePercent(checks: number, failures: number): number | null {
  if (checks <= 0) return null;
  return Math.round(((checks - failures) / checks) * 10_000) / 100;
}

/** A duration in minutes (at least 0), rounded up: a 20-second outage is "1 min". */
export const minutesBetween = (from: Date, to: Date) => Math.max(0, Math.ceil((to.getTime() - from.getTime()) / 60_000));

/** "3 h 5 min", "45 min", "2 d 4 h". */
export function formatDuration(minutes: number): string {
  if (minutes < 60) return `${minutes} min`;
  const h = Math.floor(minutes / 60);
  if (h < 48) return minutes % 60 ? `${h} h ${minutes % 60} min` : `${h} h`;
  const d = Math.floor(h / 24);
  return h % 24 ? `${d} d ${h % 24} h` : `${d} d`;
}

// ——— Months and days of a time zone ———

const partFormats = new Map<string, Intl.DateTimeFormat>();
function parts(at: Date, timeZone: string) {
  let f = partFormats.get(timeZone);
  if (!f)
    partFormats.set(
      timeZone,
      (f = new Intl.DateTimeFormat('en-CA', {
        timeZone,
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
        hour: '2-digit',
        minute: '2-digit',
        second: '2-digit',
        hourCycle: 'h23',
      })),
    );
  const p = Object.fromEntries(f.formatToParts(at).map((x) => [x.type, x.value]));
  return {
    year: Number(p.year),
    month: Number(p.month),
    day: Number(p.day),
    hour: Number(p.hour),
    minute: Number(p.minute),
    second: Number(p.second),
  };
}

/** The instant of a wall-clock time in `timeZone` (DST-safe: the offset is read twice). */
export function zonedTime(year: number, month: number, day: number, hour: number, timeZone: string): Date {
  const wanted = Date.UTC(year, month - 1, day, hour);
  let guess = wanted;
  for (let i = 0; i < 2; i++) {
    const p = parts(new Date(guess), timeZone);
    const shown = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
    guess += wanted - shown;
  }
  return new Date(guess);
}

/** "YYYY-MM" of `at` in `timeZone`. */
export function monthOf(at: Date, timeZone: string): string {
  const p = parts(at, timeZone);
  return `${p.year}-${String(p.month).padStart(2, '0')}`;
}

/** "YYYY-MM-DD" of `at` in `timeZone`. */
export function dayOf(at: Date, timeZone: string): string {
  const p = parts(at, timeZone);
  return `${p.year}-${String(p.month).padStart(2, '0')}-${String(p.day).padStart(2, '0')}`;
}

/** The month before "YYYY-MM". */
export function previousMonth(month: string): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return m === 1 ? `${y - 1}-12` : `${y}-${String(m - 1).padStart(2, '0')}`;
}

/** The month's first and the next month's first midnight in `timeZone`: [from, until). */
export function monthRange(month: string, timeZone: string): { from: Date; until: Date } {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return {
    from: zonedTime(y, m, 1, 0, timeZone),
    until: m === 12 ? zonedTime(y + 1, 1, 1, 0, timeZone) : zonedTime(y, m + 1, 1, 0, timeZone),
  };
}

/** The report day's hour: the monthly care reports are written from the 1st at this hour. */
export const CARE_REPORT_HOUR = 9;

/**
 * The last month whose care reports are due at `now`: the month before, from the 1st at 09:00 in
 * `timeZone`; before that hour on the 1st, the month before that.
 */
export function dueReportMonth(now: Date, timeZone: string): string {
  const current = monthOf(now, timeZone);
  const [y, m] = current.split('-').map(Number) as [number, number];
  const last = previousMonth(current);
  return now >= zonedTime(y, m, 1, CARE_REPORT_HOUR, timeZone) ? last : previousMonth(last);
}
