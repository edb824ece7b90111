import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { once } from 'node:events';
import { createGunzip, createGzip } from 'node:zlib';
import type { Database } from './client.ts';
import { migrationFiles, migrate, readMigration } from './migrate.ts';

/**
 * Backups in one portable format for both databases (docs/decisions/064-backups.md): gzip-compressed
 * JSON lines holding every row of our tables as PostgreSQL's own text form of each value. Text form
 * is lossless (microsecond timestamps, bigints, jsonb, arrays, bytea) and means the same on PGlite
 * (PostgreSQL 18 in WASM) and any PostgreSQL server, so a backup of one restores into the other.
 *
 * File layout, one JSON value per line:
 *   {"format":"webagency-backup","version":1,"createdAt":…,"source":"pglite","migrations":[…]}
 *   {"table":"users","columns":["id",…]}   then one array per row, values as text or null
 *   {"sequences":[{"name":…,"lastValue":"12","isCalled":true}]}
 *   {"end":true,"rows":{"users":3,…}}       a file without this line is incomplete and refused
 */

export const BACKUP_FORMAT = 'webagency-backup';
const VERSION = 1;
/** Pub/sub scratch space of the socket.io PostgreSQL adapter: transient, not data. */
const SKIPPED_TABLES = new Set(['socket_io_attachments']);
const FETCH_ROWS = 1000;
const MAX_PARAMS_PER_INSERT = 10_000;

export class BackupError extends Error {}

interface Header {
  format: string;
  version: number;
  createdAt: string;
  source: Database['kind'];
  migrations: string[];
}

export interface BackupSummary {
  source: Database['kind'];
  migrations: string[];
  rows: Record<string, number>;
}

interface Session {
  query<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<T[]>;
  exec(text: string): Promise<void>;
}

/** One connection for the whole job: a transaction and a cursor must stay on one session. */
async function withSession<T>(database: Database, fn: (s: Session) => Promise<T>): Promise<T> {
  if (!database.pool) {
    return fn({
      query: (t, p) => database.query(t, p),
      exec: (t) => database.execScript(t),
    });
  }
  const client = await database.pool.connect();
  try {
    return await fn({
      query: async <R>(t: string, p?: unknown[]) => (await client.query(t, p)).rows as R[],
      exec: async (t) => void (await client.query(t)),
    });
  } finally {
    client.release();
  }
}

const ident = (name: string) => `"${name.replace(/"/g, '""')}"`;

interface Column {
  name: string;
  type: string;
  identity: boolean;
}

async function publicTables(s: Session): Promise<string[]> {
  const rows = await s.query<{ name: string }>(
    `select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
     where n.nspname = 'public' and c.relkind in ('r', 'p') order by c.relname`,
  );
  return rows.map((r) => r.name);
}

async function columnsOf(s: Session, table: string): Promise<Column[]> {
  // Generated (computed) columns cannot be written; they are recomputed on restore.
  const rows = await s.query<{ name: string; type: string; identity: string }>(
    `select a.attname as name, format_type(a.atttypid, a.atttypmod) as type, a.attidentity as identity
     from pg_attribute a where a.attrelid = $1::regclass and a.attnum > 0 and not a.attisdropped
     and a.attgenerated = '' order by a.attnum`,
    [`public.${ident(table)}`],
  );
  return rows.map((r) => ({
    name: r.name,
    type: r.type,
    identity: r.identity !== '',
  }));
}

async function sequences(s: Session): Promise<string[]> {
  const rows = await s.query<{ name: string }>(
    `select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
     where n.nspname = 'public' and c.relkind = 'S' order by c.relname`,
  );
  return rows.map((r) => r.name);
}

/** Writes a consistent snapshot of `database` to `file` (a repeatable-read transaction). */
export async function backupDatabase(database: Database, file: string): Promise<BackupSummary> {
  // Opened before anything is read: an existing file fails here, at once (never overwritten).
  const out = (await open(file, 'wx')).createWriteStream();
  const gzip = createGzip();
  const done = new Promise<void>((resolve, reject) => {
    out.on('close', resolve);
    out.on('error', reject);
    gzip.on('error', reject);
  });
  // Awaited at the end; until then a write error must not surface as an unhandled rejection.
  done.catch(() => {});
  gzip.pipe(out);
  const write = async (value: unknown) => {
    if (!gzip.write(`${JSON.stringify(value)}\n`)) await once(gzip, 'drain');
  };

  const summary = await withSession(database, async (s) => {
    await s.exec('begin isolation level repeatable read read only');
    try {
      const hasSchema = await s.query(
        `select 1 from pg_class where relname = 'schema_migrations' and relnamespace = 'public'::regnamespace`,
      );
      if (hasSchema.length === 0) throw new BackupError('The database has no schema yet (no schema_migrations table): nothing to back up.');
      const migrations = (await s.query<{ name: string }>('select name from schema_migrations order by name')).map((r) => r.name);
      const header: Header = {
        format: BACKUP_FORMAT,
        version: VERSION,
        createdAt: new Date().toISOString(),
        source: database.kind,
        migrations,
      };
      await write(header);
      const rows: Record<string, number> = {};
      for (const table of await publicTables(s)) {
        if (SKIPPED_TABLES.has(table)) continue;
        const columns = await columnsOf(s, table);
        await write({ table, columns: columns.map((c) => c.name) });
        const select = columns.map((c, i) => `${ident(c.name)}::text as c${i}`).join(', ');
        await s.exec(`declare backup_rows no scroll cursor for select ${select} from public.${ident(table)}`);
        let count = 0;
        for (;;) {
          const batch = await s.query<Record<string, string | null>>(`fetch forward ${FETCH_ROWS} from backup_rows`);
          for (const row of batch) await write(columns.map((_, i) => row[`c${i}`] ?? null));
          count += batch.length;
          if (batch.length < FETCH_ROWS) break;
        }
        await s.exec('close backup_rows');
        rows[table] = count;
      }
      const seqs = [];
      for (const name of await sequences(s)) {
        const [v] = await s.query<{ last_value: string; is_called: boolean }>(
          `select last_value::text as last_value, is_called from public.${ident(name)}`,
        );
        seqs.push({ name, lastValue: v!.last_value, isCalled: v!.is_called });
      }
      await write({ sequences: seqs });
      await write({ end: true, rows });
      return { source: database.kind, migrations, rows };
    } finally {
      await s.exec('rollback').catch(() => {});
    }
  }).catch((err: unknown) => {
    gzip.destroy();
    out.destroy();
    throw err;
  });
  gzip.end();
  await done;
  return summary;
}

/** The tables and sequences already in `database`; a restore needs none. */
export async function existingObjects(database: Database): Promise<string[]> {
  const rows = await database.query<{ name: string }>(
    `select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
     where n.nspname = 'public' and c.relkind in ('r', 'p', 'v', 'm', 'S') order by c.relname`,
  );
  return rows.map((r) => r.name);
}

async function* readLines(file: string): AsyncGenerator<unknown> {
  const lines = createInterface({
    input: createReadStream(file).pipe(createGunzip()),
    crlfDelay: Infinity,
  });
  let n = 0;
  try {
    for await (const line of lines) {
      n += 1;
      if (line === '') continue;
      yield JSON.parse(line) as unknown;
    }
  } catch (err) {
    throw new BackupError(`${file} is not a readable backup (line ${n}: ${(err as Error).message}).`);
  }
}

function checkHeader(value: unknown, file: string): Header {
  const h = value as Partial<Header> | undefined;
  if (!h || h.format !== BACKUP_FORMAT || !Array.isArray(h.migrations)) {
    throw new BackupError(`${file} is not a backup made by npm run db:backup.`);
  }
  if (h.version !== VERSION)
    throw new BackupError(`${file} has backup format version ${String(h.version)}; this app reads version ${VERSION}.`);
  const known = new Set(migrationFiles());
  const unknown = h.migrations.filter((m) => !known.has(m));
  if (unknown.length > 0) {
    throw new BackupError(
      `${file} was made by a newer version of the app (unknown migrations: ${unknown.join(', ')}). Upgrade the app, then restore.`,
    );
  }
  return h as Header;
}

/**
 * Restores `file` into an EMPTY database, all or nothing: the schema as it was when the backup was
 * taken (the backup's own migrations), then the rows, then the migrations that came later — exactly
 * what an upgrade does to a live database. A database with any table is refused.
 */
export async function restoreDatabase(database: Database, file: string): Promise<BackupSummary> {
  const existing = await existingObjects(database);
  if (existing.length > 0) {
    const names = existing.slice(0, 5).join(', ') + (existing.length > 5 ? `, … (${existing.length} in all)` : '');
    throw new BackupError(
      `Refusing to restore: the target database is not empty (it already has ${names}). ` +
        'Restore into a new empty database (createdb …, or a new DATA_DIR); nothing was changed.',
    );
  }

  const summary = await withSession(database, async (s) => {
    const lines = readLines(file);
    try {
      return await load(s, lines);
    } finally {
      await lines.return(undefined);
    }
  });
  // Migrations newer than the backup run as they would at the next start.
  await migrate(database);
  return summary;

  async function load(s: Session, lines: AsyncGenerator<unknown>): Promise<BackupSummary> {
    const first = await lines.next();
    const header = checkHeader(first.done ? undefined : first.value, file);
    await s.exec('begin');
    try {
      await s.exec('create table schema_migrations (name text primary key, applied_at timestamptz not null default now())');
      for (const m of header.migrations) await s.exec(`${readMigration(m)}\n;`);

      // Rows arrive table by table in name order, so foreign keys are dropped for the load and
      // added back at the end (which checks every row); seeds written by migrations are replaced.
      const fks = await s.query<{ tbl: string; name: string; def: string }>(
        `select conrelid::regclass::text as tbl, conname as name, pg_get_constraintdef(oid) as def
         from pg_constraint where contype = 'f' and connamespace = 'public'::regnamespace`,
      );
      for (const fk of fks) await s.exec(`alter table ${fk.tbl} drop constraint ${ident(fk.name)}`);
      const tables = await publicTables(s);
      if (tables.length > 0) await s.exec(`truncate ${tables.map((t) => `public.${ident(t)}`).join(', ')}`);
      // The rows are copies, derived rows included (order_reads, reminder_pause_history): the tables'
      // own triggers, which would derive them again or add to them, are off for the load.
      for (const t of tables) await s.exec(`alter table public.${ident(t)} disable trigger user`);

      const rows: Record<string, number> = {};
      let current:
        | {
            table: string;
            columns: Column[];
            sql: (n: number) => string;
            batch: unknown[][];
          }
        | undefined;
      const flush = async () => {
        if (!current || current.batch.length === 0) return;
        await s.query(current.sql(current.batch.length), current.batch.flat());
        rows[current.table] = (rows[current.table] ?? 0) + current.batch.length;
        current.batch = [];
      };
      let ended = false;
      for await (const value of lines) {
        if (Array.isArray(value)) {
          if (!current || value.length !== current.columns.length)
            throw new BackupError(`${file} is damaged: a row does not match its table.`);
          current.batch.push(value);
          if ((current.batch.length + 1) * current.columns.length > MAX_PARAMS_PER_INSERT) await flush();
          continue;
        }
        const v = value as {
          table?: string;
          columns?: string[];
          sequences?: { name: string; lastValue: string; isCalled: boolean }[];
          end?: boolean;
        };
        await flush();
        if (v.table && v.columns) {
          current = await prepareTable(s, v.table, v.columns, tables, file);
          rows[v.table] = 0;
        } else if (v.sequences) {
          for (const seq of v.sequences)
            await s.query('select setval($1::regclass, $2::text::bigint, $3)', [`public.${ident(seq.name)}`, seq.lastValue, seq.isCalled]);
        } else if (v.end) {
          ended = true;
        }
      }
      if (!ended) throw new BackupError(`${file} is incomplete (no end marker): the backup did not finish. Nothing was restored.`);
      for (const t of tables) await s.exec(`alter table public.${ident(t)} enable trigger user`);
      for (const fk of fks) await s.exec(`alter table ${fk.tbl} add constraint ${ident(fk.name)} ${fk.def}`);
      await s.exec('commit');
      return { source: header.source, migrations: header.migrations, rows };
    } catch (err) {
      await s.exec('rollback').catch(() => {});
      throw err;
    }
  }
}

async function prepareTable(s: Session, table: string, names: string[], tables: string[], file: string) {
  if (!tables.includes(table)) throw new BackupError(`${file} holds table ${table}, which this schema does not have.`);
  const known = new Map((await columnsOf(s, table)).map((c) => [c.name, c]));
  const columns = names.map((n) => {
    const c = known.get(n);
    if (!c) throw new BackupError(`${file} holds column ${table}.${n}, which this schema does not have.`);
    return c;
  });
  const target = `public.${ident(table)} (${columns.map((c) => ident(c.name)).join(', ')})`;
  const overriding = columns.some((c) => c.identity) ? ' overriding system value' : '';
  // Every value travels as text and is cast by PostgreSQL's own input function for the column type.
  const sql = (n: number) => {
    const tuples: string[] = [];
    for (let r = 0; r < n; r++) {
      tuples.push(`(${columns.map((c, i) => `$${r * columns.length + i + 1}::text::${c.type}`).join(', ')})`);
    }
    return `insert into ${target}${overriding} values ${tuples.join(', ')}`;
  };
  return { table, columns, sql, batch: [] as unknown[][] };
}
