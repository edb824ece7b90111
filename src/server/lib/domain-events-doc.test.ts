import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

// docs/architecture.md's event table names every event of DomainEventMap (lib/domain-events.ts), each
// in a row of its own: an event added without its row (who publishes it, who reacts) fails here.

const read = (path: string) => readFileSync(new URL(path, import.meta.url), 'utf8');

/** The event names of DomainEventMap, read from its declaration. */
export function domainEventNames(source: string): string[] {
  const body = /export interface DomainEventMap \{([^}]*)\}/.exec(source)?.[1] ?? '';
  return [...body.matchAll(/^\s*'([a-z.-]+)':/gm)].map((m) => m[1]!);
}

/** The events the table's first column names (backticked), read from "**The events**" to the next heading. */
export function tabledEvents(doc: string): Set<string> {
  const start = doc.indexOf('**The events**');
  const end = doc.indexOf('\n**', start + 1);
  const rows = doc
    .slice(start, end === -1 ? undefined : end)
    .split('\n')
    .filter((l) => l.startsWith('| `'));
  return new Set(rows.flatMap((row) => [...(row.split('|')[1] ?? '').matchAll(/`([a-z.*-]+)`/g)].map((m) => m[1]!)));
}

describe('the event table of docs/architecture.md', () => {
  it('has a row for every event of DomainEventMap, and none for an event that is gone', () => {
    const names = domainEventNames(read('./domain-events.ts'));
    expect(names.length).toBeGreaterThan(20);
    const tabled = tabledEvents(read('../../../docs/architecture.md'));
    expect(
      names.filter((n) => !tabled.has(n)),
      'events without a row',
    ).toEqual([]);
    expect(
      [...tabled].filter((n) => !names.includes(n)),
      'rows for no event',
    ).toEqual([]);
  });

  it('the check reads a table and sees a missing event', () => {
    const doc =
      '**The events**\n\n| Event | By | Reacting |\n| --- | --- | --- |\n| `a.one` | x | y |\n| `a.two` | x | `a.one` again |\n\n**Jobs**\n| `a.three` | |';
    expect([...tabledEvents(doc)]).toEqual(['a.one', 'a.two']);
    expect(domainEventNames("export interface DomainEventMap {\n  'a.one': A;\n  'a.two': B;\n}")).toEqual(['a.one', 'a.two']);
  });
});
