// The live chat's business hours (CHAT_BUSINESS_HOURS, docs/decisions/347-chat-availability-canned-replies-csat.md):
// "Mon-Sat 10:00-19:00 Asia/Kolkata" — a run of weekdays, a daily window and an IANA time zone.
// Pure: the server decides whether the agency is in, the widget shows the next opening it is given.

const DAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'] as const;

export interface BusinessHours {
  /** 0 = Sunday … 6 = Saturday. */
  days: number[];
  /** Minutes after midnight, local time; `end` is exclusive. */
  start: number;
  end: number;
  timeZone: string;
}

const PATTERN = /^([A-Za-z]{3})(?:-([A-Za-z]{3}))?\s+(\d{2}):(\d{2})-(\d{2}):(\d{2})\s+(\S+)$/;

/** Parses the setting, or null when it is malformed. */
export function parseBusinessHours(value: string): BusinessHours | null {
  const m = PATTERN.exec(value.trim());
  if (!m) return null;
  const from = DAYS.indexOf(m[1]!.toLowerCase() as (typeof DAYS)[number]);
  const to = m[2] ? DAYS.indexOf(m[2].toLowerCase() as (typeof DAYS)[number]) : from;
  if (from < 0 || to < 0) return null;
  const [sh, sm, eh, em] = [m[3], m[4], m[5], m[6]].map(Number) as [number, number, number, number];
  if (sh > 23 || eh > 24 || sm > 59 || em > 59) return null;
  const start = sh * 60 + sm;
  const end = eh * 60 + em;
  if (end <= start) return null;
  try {
    new Intl.DateTimeFormat('en', { timeZone: m[7] });
  } catch {
    return null;
  }
  const days: number[] = [];
  for (let d = from; ; d = (d + 1) % 7) {
    days.push(d);
    if (d === to) break;
  }
  return { days, start, end, timeZone: m[7]! };
}

export function businessHoursProblem(value: string): string | null {
  return parseBusinessHours(value) ? null : 'malformed';
}

/** The weekday (0 = Sunday) and minute of the day at `at` in the zone. */
function localTime(at: Date, timeZone: string): { day: number; minute: number } {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    weekday: 'short',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(at);
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  const day = DAYS.indexOf(get('weekday').toLowerCase() as (typeof DAYS)[number]);
  return { day, minute: Number(get('hour')) * 60 + Number(get('minute')) };
}

export function isWithinBusinessHours(hours: BusinessHours, at: Date): boolean {
  const { day, minute } = localTime(at, hours.timeZone);
  return hours.days.includes(day) && minute >= hours.start && minute < hours.end;
}

/**
 * The next time the hours open after `at` (or `at` itself when they are open), to the minute. Walks
 * forward in minutes-of-the-week steps on the zone's own clock, so daylight saving needs no rule here.
 */
export function nextOpening(hours: BusinessHours, at: Date): Date {
  if (isWithinBusinessHours(hours, at)) return at;
  const { day, minute } = localTime(at, hours.timeZone);
  for (let ahead = 0; ahead <= 7; ahead++) {
    const d = (day + ahead) % 7;
    if (!hours.days.includes(d)) continue;
    if (ahead === 0 && minute >= hours.start) continue;
    const minutes = ahead * 1440 + hours.start - minute;
    // Whole minutes from now on the local clock; seconds dropped so the answer is "10:00", not "10:00:37".
    const guess = new Date(Math.floor(at.getTime() / 60_000) * 60_000 + minutes * 60_000);
    // A zone that moved its clock in between is off by its shift: correct once by reading it back.
    const back = localTime(guess, hours.timeZone);
    const drift = (back.minute - hours.start) * 60_000;
    return new Date(guess.getTime() - drift);
  }
  return at;
}

/**
 * When a reply can be promised while the agency is away within its hours: the next opening after
 * today's closing time (the day's hours are the most the founder can be away for).
 */
export function nextOpeningAfterToday(hours: BusinessHours, at: Date): Date {
  const { minute } = localTime(at, hours.timeZone);
  const closing = new Date(Math.floor(at.getTime() / 60_000) * 60_000 + Math.max(0, hours.end - minute) * 60_000);
  return nextOpening(hours, closing);
}

/** A response time for people: "45 s", "3 min", "2 h 5 min", "1 d 4 h". */
export function formatWait(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s} s`;
  const m = Math.round(s / 60);
  if (m < 60) return `${m} min`;
  const h = Math.floor(m / 60);
  if (h < 24) return m % 60 ? `${h} h ${m % 60} min` : `${h} h`;
  const d = Math.floor(h / 24);
  return h % 24 ? `${d} d ${h % 24} h` : `${d} d`;
}
