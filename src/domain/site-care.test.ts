import { describe, expect, it } from 'vitest';
import { dayOf, dueReportMonth, formatDuration, monthRange, nextState, uptimePercent, warningDue } from './site-care.ts';

describe('nextState', () => {
  it('is down after 2 failures in a row and up after 1 success', () => {
    let s = { state: 'unknown' as const, failStreak: 0 } as { state: 'unknown' | 'up' | 'down'; failStreak: number };
    const one = nextState(s, false);
    expect(one).toEqual({ state: 'unknown', failStreak: 1, opened: false, closed: false });
    const two = nextState(one, false);
    expect(two).toMatchObject({ state: 'down', opened: true });
    expect(nextState(two, false)).toMatchObject({ state: 'down', opened: false, failStreak: 3 });
    s = nextState(two, true);
    expect(s).toMatchObject({ state: 'up', failStreak: 0, closed: true });
    expect(nextState(nextState(s, false), true)).toMatchObject({ state: 'up', closed: false, opened: false });
  });
});

describe('warningDue', () => {
  it('warns once per threshold; several passed at once send the smallest', () => {
    const t = [21, 14, 7, 1];
    expect(warningDue(30, t, null)).toBeNull();
    expect(warningDue(21, t, null)).toBe(21);
    expect(warningDue(20, t, 21)).toBeNull();
    expect(warningDue(14, t, 21)).toBe(14);
    expect(warningDue(5, t, null)).toBe(7);
    expect(warningDue(4, t, 7)).toBeNull();
    expect(warningDue(1, t, 7)).toBe(1);
    expect(warningDue(-3, t, 1)).toBeNull();
  });
});

describe('uptime and durations', () => {
  it('has two decimals', () => {
    expect(uptimePercent(0, 0)).toBeNull();
    expect(uptimePercent(8640, 3)).toBe(99.97);
    expect(uptimePercent(3, 1)).toBe(66.67);
    expect(formatDuration(5)).toBe('5 min');
    expect(formatDuration(125)).toBe('2 h 5 min');
    expect(formatDuration(60 * 50)).toBe('2 d 2 h');
  });
});

describe('months in INVOICE_TIME_ZONE', () => {
  it('starts a month at local midnight and the reports on the 1st at 09:00', () => {
    const { from, until } = monthRange('2026-11', 'Asia/Kolkata');
    expect(from.toISOString()).toBe('2026-10-31T18:30:00.000Z');
    expect(until.toISOString()).toBe('2026-11-30T18:30:00.000Z');
    expect(monthRange('2026-12', 'Asia/Kolkata').until.toISOString()).toBe('2026-12-31T18:30:00.000Z');
    expect(dueReportMonth(new Date('2026-12-01T03:29:00Z'), 'Asia/Kolkata')).toBe('2026-10');
    expect(dueReportMonth(new Date('2026-12-01T03:30:00Z'), 'Asia/Kolkata')).toBe('2026-11');
    expect(dueReportMonth(new Date('2027-01-01T03:30:00Z'), 'Asia/Kolkata')).toBe('2026-12');
    expect(dayOf(new Date('2026-11-30T19:00:00Z'), 'Asia/Kolkata')).toBe('2026-12-01');
    // A zone with DST.
    expect(monthRange('2026-04', 'Europe/Berlin').from.toISOString()).toBe('2026-03-31T22:00:00.000Z');
  });
});
