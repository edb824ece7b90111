import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Database } from './client.ts';

const MIGRATIONS_DIR = fileURLToPath(new URL('./migrations/', import.meta.url));
// Any constant works; it only has to be the same for every instance so that two servers
// starting together on one PostgreSQL apply each migration exactly once.
const ADVISORY_LOCK_ID = 727_001;

/** The migration files this version of the app knows, in the order they apply. */
export function migrationFiles(): string[] {
  return readdirSync(MIGRATIONS_DIR)
    .filter((f) => /^\d{4}_[\w-]+\.sql$/.test(f))
    .sort();
}

export function readMigration(file: string): string {
  return readFileSync(MIGRATIONS_DIR + file, 'utf8');
}

/**
 * Applies every `migrations/NNNN_name.sql` not yet recorded, in file-name order, each in its own
 * transaction. See docs/decisions/003-embedded-database.md for why migrations are plain SQL.
 */
export async function migrate(database: Database): Promise<string[]> {
  const files = migrationFiles();
  // Session-level advisory locks belong to one connection, so on PostgreSQL everything below runs
  // on a single checked-out client.
  const client = database.pool ? await database.pool.connect() : undefined;
  const exec = async (text: string) => {
    if (client) await client.query(text);
    else await database.execScript(text);
  };
  const query = async <T>(text: string, params: unknown[] = []) =>
    client ? ((await client.query(text, params)).rows as T[]) : database.query<T>(text, params);
  if (client) await query('select pg_advisory_lock($1)', [ADVISORY_LOCK_ID]);
  const applied: string[] = [];
  try {
    await exec('create table if not exists schema_migrations (name text primary key, applied_at timestamptz not null default now())');
    const done = new Set((await query<{ name: string }>('select name from schema_migrations')).map((r) => r.name));
    for (const file of files) {
      if (done.has(file)) continue;
      const body = readMigration(file);
      const name = file.replace(/'/g, "''");
      await exec(`begin;\n${body}\n;insert into schema_migrations(name) values ('${name}');\ncommit;`);
      applied.push(file);
    }
  } catch (err) {
    await exec('rollback').catch(() => {});
    throw err;
  } finally {
    if (client) {
      await query('select pg_advisory_unlock($1)', [ADVISORY_LOCK_ID]).catch(() => {});
      client.release();
    }
  }
  return applied;
}
