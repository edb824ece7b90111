import { describe, expect, it } from 'vitest';
import { isWithinBusinessHours, nextOpening, nextOpeningAfterToday, parseBusinessHours } from './business-hours.ts';

// CHAT_BUSINESS_HOURS (docs/decisions/347-chat-availability-canned-replies-csat.md).
describe('business hours', () => {
  const ist = parseBusinessHours('Mon-Sat 10:00-19:00 Asia/Kolkata')!;

  it('parses the default and refuses what is malformed', () => {
    expect(ist).toEqual({ days: [1, 2, 3, 4, 5, 6], start: 600, end: 1140, timeZone: 'Asia/Kolkata' });
    expect(parseBusinessHours('Fri-Mon 09:00-17:00 UTC')!.days).toEqual([5, 6, 0, 1]);
    for (const bad of ['Mon-Sat', 'Mon-Sat 19:00-10:00 UTC', 'Mon-Xyz 10:00-19:00 UTC', 'Mon-Sat 10:00-19:00 Mars/Base'])
      expect(parseBusinessHours(bad), bad).toBeNull();
  });

  it('is open Monday to Saturday 10:00–19:00 in India, whatever the server zone', () => {
    // Monday 2026-11-30 10:00 IST = 04:30 UTC.
    expect(isWithinBusinessHours(ist, new Date('2026-11-30T04:30:00Z'))).toBe(true);
    expect(isWithinBusinessHours(ist, new Date('2026-11-30T04:29:00Z'))).toBe(false);
    expect(isWithinBusinessHours(ist, new Date('2026-11-30T13:29:00Z'))).toBe(true);
    expect(isWithinBusinessHours(ist, new Date('2026-11-30T13:30:00Z'))).toBe(false);
    // Sunday noon IST.
    expect(isWithinBusinessHours(ist, new Date('2026-11-29T06:30:00Z'))).toBe(false);
  });

  it('names the next opening: Saturday evening waits for Monday 10:00 IST', () => {
    expect(nextOpening(ist, new Date('2026-11-28T15:00:00Z')).toISOString()).toBe('2026-11-30T04:30:00.000Z');
    expect(nextOpening(ist, new Date('2026-11-30T02:00:00Z')).toISOString()).toBe('2026-11-30T04:30:00.000Z');
    const open = new Date('2026-11-30T05:00:00Z');
    expect(nextOpening(ist, open)).toBe(open);
    // Away on Monday at 11:00 IST: a reply by Tuesday 10:00 IST; on Saturday, by Monday.
    expect(nextOpeningAfterToday(ist, open).toISOString()).toBe('2026-12-01T04:30:00.000Z');
    expect(nextOpeningAfterToday(ist, new Date('2026-11-28T06:00:00Z')).toISOString()).toBe('2026-11-30T04:30:00.000Z');
  });
});

describe('formatWait', () => {
  it('says a response time in the unit people use', async () => {
    const { formatWait } = await import('./business-hours.ts');
    expect([45, 180, 7500, 100_800].map(formatWait)).toEqual(['45 s', '3 min', '2 h 5 min', '1 d 4 h']);
  });
});
