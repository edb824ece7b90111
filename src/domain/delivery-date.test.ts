import { describe, expect, it } from 'vitest';
import { daysLeft, dueDateAfter, formatDueDate } from './delivery-date.ts';

describe('delivery date', () => {
  it('is the UTC day of the approval plus the days, whatever the hour', () => {
    expect(dueDateAfter(new Date('2026-11-25T00:00:00Z'), 28)).toBe('2026-12-23');
    expect(dueDateAfter(new Date('2026-11-25T23:59:59Z'), 28)).toBe('2026-12-23');
    // Across a year end and a leap day.
    expect(dueDateAfter(new Date('2027-12-20T10:00:00Z'), 28)).toBe('2028-01-17');
    expect(dueDateAfter(new Date('2028-02-10T10:00:00Z'), 28)).toBe('2028-03-09');
  });

  it('counts whole days left, 0 on the day and negative once overdue', () => {
    expect(daysLeft('2026-12-23', new Date('2026-11-25T18:00:00Z'))).toBe(28);
    expect(daysLeft('2026-12-23', new Date('2026-12-23T23:00:00Z'))).toBe(0);
    expect(daysLeft('2026-12-23', new Date('2026-12-25T01:00:00Z'))).toBe(-2);
  });

  it('reads as a date in words', () => {
    expect(formatDueDate('2026-12-23')).toBe('December 23, 2026');
  });
});
