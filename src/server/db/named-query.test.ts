import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from './client.ts';
import { openTestDatabase } from '../../../tests/helpers/test-app.ts';

// Named statements of Database.query (docs/decisions/291-signed-in-reads-one-statement.md): on
// PGlite they go through its protocol by hand (parsed once, then bound and executed), so they must
// answer as an unnamed query does — the same rows and types, nulls, errors — and leave the one
// session usable after an error (PGlite, or PostgreSQL with TEST_DB=postgres).

let database: Database;
let drop: () => Promise<void>;
beforeAll(async () => {
  ({ database, drop } = await openTestDatabase());
});
afterAll(async () => {
  await database?.close();
  await drop?.();
});

const TEXT = `select $1::text as t, $2::int as n, $3::uuid is null as no_id, now() - interval '1 day' < now() as past,
                    '{"a": [1, "x"]}'::json as j, timestamptz '2026-01-02T03:04:05.678Z' as at, g as i
               from generate_series(1, $2::int) g order by g`;

describe('Database.query with a name', () => {
  it('answers as the unnamed query, again and again, with other parameters each time', async () => {
    for (const [t, n] of [
      ['a', 2],
      ['b', 0],
      ['c', 3],
    ] as const) {
      const unnamed = await database.query(TEXT, [t, n, null]);
      const named = await database.query(TEXT, [t, n, null], 'named_query_test');
      expect(named).toEqual(unnamed);
      expect(named).toHaveLength(n);
    }
    const [row] = await database.query<{ j: unknown; at: Date; no_id: boolean }>(
      TEXT,
      ['z', 1, '00000000-0000-0000-0000-000000000000'],
      'named_query_test',
    );
    expect(row).toMatchObject({ j: { a: [1, 'x'] }, no_id: false });
    expect(new Date(row!.at).toISOString()).toBe('2026-01-02T03:04:05.678Z');
  });

  it('throws the database error, and the session answers afterwards (inside a transaction too)', async () => {
    await expect(database.query('select $1::uuid as id', ['not-a-uuid'], 'named_query_bad')).rejects.toThrow(/uuid/);
    await expect(database.query('select $1::int / 0 as x', [1], 'named_query_div')).rejects.toThrow(/division by zero/);
    expect(await database.query('select $1::int + 1 as x', [1], 'named_query_ok')).toEqual([{ x: 2 }]);
    await database.db.transaction(async (tx) => {
      await tx.execute('select 1');
    });
    expect(await database.query('select $1::int / 1 as x', [4], 'named_query_div2')).toEqual([{ x: 4 }]);
  });
});
