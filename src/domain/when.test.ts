import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatDate, formatDay, formatTime, formatWhen, formatWhenShort, monthIn, zoneName } from './when.ts';

// docs/decisions/335-one-rule-for-times.md
const at = '2026-03-31T19:05:00Z';

describe('the one formatter of times', () => {
  it('says the time in the zone it is given, with the zone’s short name', () => {
    expect(formatWhen(at, 'Asia/Kolkata')).toBe('April 1, 2026 at 12:35 AM IST');
    expect(formatWhen(at, 'UTC')).toBe('March 31, 2026 at 7:05 PM UTC');
    expect(formatWhen(at, 'America/Los_Angeles')).toBe('March 31, 2026 at 12:05 PM PDT');
    expect(formatWhen('2026-01-15T12:00:00Z', 'America/Los_Angeles')).toBe('January 15, 2026 at 4:00 AM PST');
    expect(formatWhen('2026-07-01T12:00:00Z', 'Europe/London')).toBe('July 1, 2026 at 1:00 PM BST');
    expect(formatWhen(at, 'Asia/Dubai')).toBe('March 31, 2026 at 11:05 PM GST');
    // A zone no English locale names: its offset.
    expect(formatWhen(at, 'Asia/Singapore')).toBe('April 1, 2026 at 3:05 AM GMT+8');
  });

  it('has a short form, a time and a day of an instant', () => {
    expect(formatWhenShort(at, 'Asia/Kolkata')).toBe('Apr 1, 12:35 AM IST');
    expect(formatTime(at, 'Asia/Kolkata')).toBe('12:35 AM IST');
    expect(formatDate(at, 'Asia/Kolkata')).toBe('April 1, 2026');
    expect(formatDate(at, 'UTC', true)).toBe('Mar 31, 2026');
    expect(zoneName(new Date(at), 'UTC')).toBe('UTC');
    expect(monthIn(at, 'Asia/Kolkata')).toBe('2026-04');
    expect(monthIn(at, 'UTC')).toBe('2026-03');
  });

  it('without a zone, uses the runtime’s own (the viewer’s browser)', () => {
    const own = Intl.DateTimeFormat().resolvedOptions().timeZone;
    expect(formatWhen(at)).toBe(formatWhen(at, own));
    expect(formatWhenShort(new Date(at))).toBe(formatWhenShort(at, own));
  });

  it('reads a calendar day the same in every zone', () => {
    expect(formatDay('2026-11-03')).toBe('November 3, 2026');
    expect(formatDay('2026-11-03', 'short')).toBe('Nov 3, 2026');
    expect(formatDay('2026-11-03', 'monthDay')).toBe('Nov 3');
    expect(formatDay('2026-11')).toBe('November 2026');
  });
});

describe('src/web formats times only through it', () => {
  it('has no toLocaleDateString, toLocaleTimeString, Date#toLocaleString, Intl.DateTimeFormat, UTC formatter or "UTC" text of its own', () => {
    const files: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const path = join(dir, name);
        if (statSync(path).isDirectory()) walk(path);
        else if (/\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name)) files.push(path);
      }
    };
    walk('src/web');
    const offenders = files.flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .map((line, i) => ({ line: line.trim(), where: `${file}:${i + 1}` }))
        .filter(({ line }) => !line.startsWith('//') && !line.startsWith('*'))
        .filter(({ line }) =>
          new RegExp(
            [
              'toLocaleDateString|toLocaleTimeString',
              String.raw`toLocaleString\('en-|Intl\.DateTimeFormat`,
              "timeZone: 'UTC'|formatStageDate|formatCustomerDate",
              String.raw`\} UTC\b| UTC[\`.'"]`,
            ].join('|'),
          ).test(line),
        )
        .map(({ where, line }) => `${where}: ${line}`),
    );
    expect(offenders).toEqual([]);
  });
});
