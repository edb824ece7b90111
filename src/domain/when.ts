// One rule for times (docs/decisions/335-one-rule-for-times.md): the one formatter of instants.
// - Screens (src/web) show them in the viewer's own time zone, the browser's: they leave `timeZone`
//   out, and the zone's short name follows every time ("March 5, 2026 at 7:37 PM IST").
// - E-mails pass the recipient's zone (else the agency's); documents keep INVOICE_TIME_ZONE.
// - JSON answers carry ISO 8601 instants; only this formats them.
// English (US) words and order as the spec's date format (spec §2), in a zone that is said.

type Style = 'long' | 'short' | 'time' | 'date' | 'shortDate' | 'monthDay' | 'monthYear' | 'isoMonth';

const OPTIONS: Record<Style, Intl.DateTimeFormatOptions> = {
  long: { year: 'numeric', month: 'long', day: 'numeric', hour: 'numeric', minute: '2-digit', hour12: true },
  short: { month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit', hour12: true },
  time: { hour: 'numeric', minute: '2-digit', hour12: true },
  date: { year: 'numeric', month: 'long', day: 'numeric' },
  shortDate: { year: 'numeric', month: 'short', day: 'numeric' },
  monthDay: { month: 'short', day: 'numeric' },
  monthYear: { year: 'numeric', month: 'long' },
  isoMonth: { year: 'numeric', month: '2-digit' },
};

// Intl formatters are costly to build: one per style and zone ('' is the runtime's own zone).
const formats = new Map<string, Intl.DateTimeFormat>();
function format(style: Style | 'zone', timeZone: string | undefined, locale = 'en-US'): Intl.DateTimeFormat {
  const key = `${style}|${timeZone ?? ''}|${locale}`;
  let f = formats.get(key);
  if (!f) {
    const options = style === 'zone' ? { timeZoneName: 'short' as const } : OPTIONS[style];
    formats.set(key, (f = new Intl.DateTimeFormat(locale, { ...options, ...(timeZone ? { timeZone } : {}) })));
  }
  return f;
}

const toDate = (at: Date | string | number) => (at instanceof Date ? at : new Date(at));

// English locales whose short names know more zones than en-US's: India's "IST", the Gulf's "GST",
// Britain's "BST", central Europe's "CEST", Australia's "AEST". Else en-US's "GMT+5:30".
const NAME_LOCALES = ['en-US', 'en-IN', 'en-GB', 'en-AU'];

/** The zone's short name at that instant: "IST", "PDT", "UTC", else "GMT+4". */
export function zoneName(at: Date | string | number, timeZone?: string): string {
  const d = toDate(at);
  let fallback = '';
  for (const locale of NAME_LOCALES) {
    const name =
      format('zone', timeZone, locale)
        .formatToParts(d)
        .find((p) => p.type === 'timeZoneName')?.value ?? '';
    if (name && !/^GMT[+-]/.test(name)) return name;
    fallback ||= name;
  }
  return fallback;
}

/** "March 5, 2026 at 7:37 PM IST" */
export function formatWhen(at: Date | string | number, timeZone?: string): string {
  return `${format('long', timeZone).format(toDate(at))} ${zoneName(at, timeZone)}`;
}

/** "Mar 5, 7:37 PM IST": for lists of files, messages and events. */
export function formatWhenShort(at: Date | string | number, timeZone?: string): string {
  return `${format('short', timeZone).format(toDate(at))} ${zoneName(at, timeZone)}`;
}

/** "7:37 PM IST" */
export function formatTime(at: Date | string | number, timeZone?: string): string {
  return `${format('time', timeZone).format(toDate(at))} ${zoneName(at, timeZone)}`;
}

/** "March 5, 2026" (`short`: "Mar 5, 2026"): the day of an instant in the zone. */
export function formatDate(at: Date | string | number, timeZone?: string, short = false): string {
  return format(short ? 'shortDate' : 'date', timeZone).format(toDate(at));
}

/** "2026-04" (YYYY-MM): the month of an instant in the zone — a document's month, in its zone. */
export function monthIn(at: Date | string | number, timeZone?: string): string {
  return format('isoMonth', timeZone, 'en-CA').format(toDate(at)).slice(0, 7);
}

/**
 * A calendar day, 'YYYY-MM-DD' or 'YYYY-MM' — a due date, a week, a month — is no instant: it reads
 * the same in every zone. "March 5, 2026", `short` "Mar 5, 2026", `monthDay` "Mar 5"; a month "March 2026".
 */
export function formatDay(day: string, style: 'long' | 'short' | 'monthDay' = 'long'): string {
  if (/^\d{4}-\d{2}$/.test(day)) return format('monthYear', 'UTC').format(new Date(`${day}-15T12:00:00Z`));
  return format(style === 'long' ? 'date' : style === 'short' ? 'shortDate' : 'monthDay', 'UTC').format(
    new Date(`${day.slice(0, 10)}T12:00:00Z`),
  );
}
