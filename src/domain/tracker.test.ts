import { describe, expect, it } from 'vitest';
import { STAGES, STAGE_COUNT, completedStepsOnWire, formatCustomerDate, formatStageDate, stageDoneText, stagesDone } from './tracker.ts';

// Completed_steps is the index of the last completed stage (spec §4).
describe('completed_steps on the wire', () => {
  it('is 0 after the advance and 14 after delivery', () => {
    expect(completedStepsOnWire(1)).toBe(0);
    expect(completedStepsOnWire(STAGE_COUNT)).toBe(14);
  });
  it('reads back as 1/15 after the advance and 15/15 after delivery', () => {
    expect(stagesDone(completedStepsOnWire(1))).toBe(1);
    expect(stagesDone(completedStepsOnWire(13))).toBe(13);
    expect(stagesDone(completedStepsOnWire(STAGE_COUNT))).toBe(STAGE_COUNT);
  });
});

describe('formatStageDate', () => {
  it('keeps the spec §2 format (English US, long month, 12-hour, UTC) with one shared formatter', () => {
    expect(formatStageDate('2026-03-05T14:07:00Z')).toBe('March 5, 2026 at 2:07 PM');
    const d = new Date('2025-12-31T00:00:00Z');
    const options = {
      timeZone: 'UTC',
      year: 'numeric',
      month: 'long',
      day: 'numeric',
      hour: 'numeric',
      minute: '2-digit',
      hour12: true,
    } as const;
    expect(formatStageDate(d)).toBe(d.toLocaleString('en-US', options));
  });
});

describe('formatCustomerDate', () => {
  it('writes every customer date one way and names its zone: UTC, or the invoice’s own zone', () => {
    const at = '2026-03-31T19:00:00Z';
    expect(formatCustomerDate(at)).toBe('March 31, 2026 at 7:00 PM UTC');
    // An invoice's date is its financial year's calendar date: already 1 April in India.
    expect(formatCustomerDate(at, 'Asia/Kolkata')).toBe('April 1, 2026 at 12:30 AM Asia/Kolkata');
    expect(formatCustomerDate(new Date(at), 'UTC')).toBe(formatCustomerDate(at));
  });
});

describe('stageDoneText', () => {
  it('says a stage is completed once, also for the stages named "… Completed"', () => {
    expect(stageDoneText('UI Discussion')).toBe('UI Discussion completed');
    expect(stageDoneText('UI Completed')).toBe('UI Completed');
    for (const name of STAGES) expect(stageDoneText(name)).not.toMatch(/completed completed/i);
  });
});
