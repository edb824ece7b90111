import { cpSync, existsSync, mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { sql } from 'drizzle-orm';

export type Db = PgDatabase<PgQueryResultHKT, Record<string, never>>;
/** A transaction (or savepoint) of `Db`, as `db.transaction(tx => …)` passes it. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** Runs one or more SQL statements without parameters (migrations). */
  execScript(text: string): Promise<void>;
  /**
   * Raw parameterised query, for the few places drizzle's builder does not fit. `name` makes it a
   * named prepared statement on PostgreSQL (parsed and planned once per connection: the hot
   * signed-in reads, docs/decisions/285-signed-in-read-path.md); one name, one text.
   */
  query<T = Record<string, unknown>>(text: string, params?: unknown[], name?: string): Promise<T[]>;
  /** The pg pool when running on PostgreSQL (socket.io adapter needs it). */
  pool?: pg.Pool;
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  databaseUrl?: string;
  /** A directory for PGlite, or 'memory'. */
  dataDir: string;
  /**
   * An in-memory PGlite starts from this data-directory tarball (`dumpDataDir()`) instead of an
   * empty initdb: the tests migrate once per run and give each file a copy (tests/helpers/global-setup.ts).
   */
  loadDataDir?: Blob;
}

export async function openDatabase(opts: DatabaseOptions): Promise<Database> {
  return opts.databaseUrl ? openPostgres(opts.databaseUrl) : openPglite(opts.dataDir, opts.loadDataDir);
}

// PostgreSQL's default 128 MB of shared buffers is reserved inside PGlite's WASM memory and
// makes most of its resident size; this app's working set is a few MB (decision 060).
const PGLITE_START_PARAMS = [...PGlite.defaultStartParams, '-c', 'shared_buffers=16MB'];

/**
 * A data directory initialised at build time (scripts/build-server.mjs), next to the compiled
 * server. PGlite's initdb costs ~10 s and ~900 MB at its peak; copying the template costs neither.
 * Absent when running from source (tsx): PGlite then initialises the directory itself.
 */
const PGLITE_TEMPLATE = fileURLToPath(new URL('../pglite-template', import.meta.url));

async function openPglite(dataDir: string, loadDataDir?: Blob): Promise<Database> {
  if (dataDir !== 'memory') {
    mkdirSync(dataDir, { recursive: true });
    if (!existsSync(`${dataDir}/PG_VERSION`) && existsSync(`${PGLITE_TEMPLATE}/PG_VERSION`)) cpSync(PGLITE_TEMPLATE, dataDir, { recursive: true });
  }
  const options = { startParams: PGLITE_START_PARAMS, ...(loadDataDir && dataDir === 'memory' ? { loadDataDir } : {}) };
  const client = dataDir === 'memory' ? new PGlite(options) : new PGlite(dataDir, options);
  await client.waitReady;
  const db = drizzlePglite({ client }) as unknown as Db;
  return {
    db,
    kind: 'pglite',
    async execScript(text) {
      await client.exec(text);
    },
    async query(text, params) {
      const r = await client.query(text, params as unknown[]);
      return r.rows as never[];
    },
    ping: () => pingWith(db),
    async close() {
      if (!client.closed) await client.close();
    },
  };
}

async function openPostgres(url: string): Promise<Database> {
  // 20: a busy chat instance (500 messages/s) ran a pool of 10 dry. The socket.io
  // adapter's LISTEN connection is its own client, outside the pool (plugins/socket.ts).
  const pool = new pg.Pool({ connectionString: url, max: 20, connectionTimeoutMillis: 5000 });
  // An idle client that loses its server must not crash the process.
  pool.on('error', () => {});
  const db = drizzlePg({ client: pool }) as unknown as Db;
  return {
    db,
    kind: 'postgres',
    pool,
    async execScript(text) {
      await pool.query(text);
    },
    async query(text, params, name) {
      const r = name ? await pool.query({ name, text, values: params as unknown[] }) : await pool.query(text, params as unknown[]);
      return r.rows;
    },
    ping: () => pingWith(db),
    async close() {
      await pool.end();
    },
  };
}

async function pingWith(db: Db): Promise<boolean> {
  try {
    await Promise.race([
      db.execute(sql`select 1`),
      new Promise((_, reject) => setTimeout(() => reject(new Error('timeout')), 2000)),
    ]);
    return true;
  } catch {
    return false;
  }
}
