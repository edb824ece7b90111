import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getTableConfig, PgTable } from 'drizzle-orm/pg-core';
import { is } from 'drizzle-orm';
import { openDatabase, type Database } from './client.ts';
import { migrate } from './migrate.ts';

// The SQL migrations are the schema's source of truth (docs/decisions/003-embedded-database.md);
// the Drizzle tables are how the code reads it. This test keeps the two in step: every table and
// column the code names exists with the same nullability, and the tables the code knows have no
// NOT NULL column without a default that the code could not fill.
const SCHEMA_DIR = fileURLToPath(new URL('./schema/', import.meta.url));

async function drizzleTables(): Promise<PgTable[]> {
  const tables: PgTable[] = [];
  for (const file of readdirSync(SCHEMA_DIR).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))) {
    const mod = (await import(SCHEMA_DIR + file)) as Record<string, unknown>;
    for (const value of Object.values(mod)) if (is(value, PgTable)) tables.push(value);
  }
  return tables;
}

let database: Database;
beforeAll(async () => {
  database = await openDatabase({ dataDir: 'memory' });
  await migrate(database);
}, 60_000);
afterAll(async () => database?.close());

describe('Drizzle schema and SQL migrations', () => {
  it('name the same tables, columns and nullability', async () => {
    const columns = await database.query<{
      table_name: string;
      column_name: string;
      is_nullable: string;
      column_default: string | null;
      is_identity: string;
    }>(
      `select table_name, column_name, is_nullable, column_default, is_identity
         from information_schema.columns where table_schema = 'public'`,
    );
    const byTable = new Map<string, Map<string, (typeof columns)[number]>>();
    for (const c of columns) {
      if (!byTable.has(c.table_name)) byTable.set(c.table_name, new Map());
      byTable.get(c.table_name)!.set(c.column_name, c);
    }
    const problems: string[] = [];
    const tables = await drizzleTables();
    expect(tables.length).toBeGreaterThan(30);
    for (const table of tables) {
      const config = getTableConfig(table);
      const dbColumns = byTable.get(config.name);
      if (!dbColumns) {
        problems.push(`table ${config.name} is in the Drizzle schema but no migration creates it`);
        continue;
      }
      const named = new Set<string>();
      for (const column of config.columns) {
        named.add(column.name);
        const db = dbColumns.get(column.name);
        if (!db) {
          problems.push(`${config.name}.${column.name} is in the Drizzle schema but not in the database`);
          continue;
        }
        if (column.notNull !== (db.is_nullable === 'NO')) {
          problems.push(
            `${config.name}.${column.name}: Drizzle says ${column.notNull ? 'not null' : 'nullable'}, the migrations ` +
              `${db.is_nullable === 'NO' ? 'not null' : 'nullable'}`,
          );
        }
      }
      // A NOT NULL column without a default that the code does not know would make every insert fail.
      for (const [name, db] of dbColumns) {
        if (!named.has(name) && db.is_nullable === 'NO' && db.column_default === null && db.is_identity !== 'YES') {
          problems.push(`${config.name}.${name} is NOT NULL without a default, and the Drizzle schema does not name it`);
        }
      }
    }
    expect(problems).toEqual([]);
  });
});
