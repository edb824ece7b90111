import { cpSync, existsSync, mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { PGlite, parse as pgliteParse, protocol } from '@electric-sql/pglite';
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
   * named prepared statement (parsed once per connection on PostgreSQL, per instance on PGlite: the
   * hot signed-in reads, docs/decisions/285-signed-in-read-path.md and 291); one name, one text.
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
    if (!existsSync(`${dataDir}/PG_VERSION`) && existsSync(`${PGLITE_TEMPLATE}/PG_VERSION`))
      cpSync(PGLITE_TEMPLATE, dataDir, { recursive: true });
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
    async query(text, params, name) {
      if (name) return (await namedPgliteQuery(client, text, (params ?? []) as unknown[], name)) as never[];
      const r = await client.query(text, params as unknown[]);
      return r.rows as never[];
    },
    ping: () => pingWith(db),
    async close() {
      if (!client.closed) await client.close();
    },
  };
}

const { serialize } = protocol;
/** The parameter types of each named statement prepared on a PGlite instance (its one session). */
const pglitePrepared = new WeakMap<PGlite, Map<string, number[]>>();

/**
 * PGlite's `query` sends every statement unnamed (Parse, Describe, Bind, Describe, Execute, Sync), so
 * each read is parsed and planned again inside the WASM PostgreSQL. A named statement is parsed once
 * per instance, then only bound and executed: the same protocol steps `query` takes, under the same
 * two locks (no transaction or other query in between), with its parameter serialisers and result
 * parsers (docs/decisions/291-signed-in-reads-one-statement.md). One name, one text, as on PostgreSQL.
 */
async function namedPgliteQuery(client: PGlite, text: string, params: unknown[], name: string): Promise<unknown[]> {
  let prepared = pglitePrepared.get(client);
  if (!prepared) pglitePrepared.set(client, (prepared = new Map()));
  const statements = prepared;
  return client._runExclusiveTransaction(() =>
    client._runExclusiveQuery(async () => {
      const exec = async (message: Uint8Array) => (await client.execProtocol(message, { syncToFs: false })).messages;
      const messages = [];
      try {
        let types = statements.get(name);
        if (!types) {
          await exec(serialize.parse({ name, text }));
          types = pgliteParse.parseDescribeStatementResults(await exec(serialize.describe({ type: 'S', name })));
          statements.set(name, types);
        }
        const paramTypes = types;
        const values = params.map((v, i) => {
          if (v === null || v === undefined) return null;
          const serializer = client.serializers[paramTypes[i]!];
          return serializer ? serializer(v) : String(v);
        });
        messages.push(
          ...(await exec(serialize.bind({ statement: name, values }))),
          ...(await exec(serialize.describe({ type: 'P' }))),
          ...(await exec(serialize.execute({}))),
        );
      } finally {
        messages.push(...(await exec(serialize.sync())));
      }
      if (!client.isInTransaction()) await client.syncToFs();
      return pgliteParse.parseResults(messages, client.parsers)[0]?.rows ?? [];
    }),
  );
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
    await Promise.race([db.execute(sql`select 1`), new Promise((_, reject) => setTimeout(() => reject(new Error('timeout')), 2000))]);
    return true;
  } catch {
    return false;
  }
}
