// Spec §2: English (US), long month, day, year, 12-hour time with minutes, in UTC.
const formatter = new Intl.DateTimeFormat('en-US', {
  year: 'numeric',
  month: 'long',
  day: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
  hour12: true,
  timeZone: 'UTC',
});

export const formatFooterDateTime = (date: Date) => `${formatter.format(date)} UTC`;
