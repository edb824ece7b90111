// Vitest's globalSetup (vite.config.ts): the migrations run ONCE per run, and every test file starts
// from a copy of the result instead of running them itself (docs/decisions/205-tests-start-from-a-migrated-copy.md).
// - PGlite: the migrated data directory, dumped as a tarball (kept between runs, see snapshotKey);
//   each file's in-memory PGlite loads it (`loadDataDir`), which also skips PGlite's initdb.
// - PostgreSQL (TEST_DB=postgres): a migrated template database; each throw-away database is
//   `create database … template` it.
// Tests of the migrations themselves (src/server/db/*.test.ts, the multi-instance start-up) still
// open empty databases and migrate them.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../../src/server/db/client.ts';
import { migrate, migrationFiles, readMigration } from '../../src/server/db/migrate.ts';
import { createThrowAwayDatabase } from './throw-away-database.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A file holding the migrated PGlite data directory (tar). */
    pgliteSnapshot: string;
    /** The migrated template database on TEST_DATABASE_URL's server ('' on PGlite runs). */
    postgresTemplate: string;
  }
}

const CACHE_DIR = 'node_modules/.cache/webagency-test-db';

/**
 * The PGlite snapshot is kept between runs under a name made of everything it depends on (PGlite's
 * version, the client options, every migration's name and text): a run after a change to any of
 * them makes a new one, so a stale snapshot cannot be used.
 */
function snapshotKey(): string {
  const hash = createHash('sha256');
  hash.update(JSON.parse(readFileSync('node_modules/@electric-sql/pglite/package.json', 'utf8')).version);
  hash.update(readFileSync('src/server/db/client.ts'));
  for (const file of migrationFiles()) hash.update(`\0${file}\0${readMigration(file)}`);
  return hash.digest('hex').slice(0, 16);
}

async function pgliteSnapshot(): Promise<string> {
  const file = join(CACHE_DIR, `pglite-${snapshotKey()}.tar`);
  if (existsSync(file)) return file;
  const database = await openDatabase({ dataDir: 'memory' });
  try {
    await migrate(database);
    const client = (database.db as unknown as { $client: PGlite }).$client;
    mkdirSync(CACHE_DIR, { recursive: true });
    // Uncompressed: gunzip in every file would cost more than reading ~45 MB from the page cache.
    // Written aside and renamed, so a parallel run never reads half a file.
    const partial = `${file}.${process.pid}`;
    writeFileSync(partial, Buffer.from(await (await client.dumpDataDir('none')).arrayBuffer()));
    renameSync(partial, file);
    // Older snapshots (of other migrations) are of no further use.
    for (const old of readdirSync(CACHE_DIR)) if (/^pglite-\w+\.tar$/.test(old) && join(CACHE_DIR, old) !== file) rmSync(join(CACHE_DIR, old), { force: true });
  } finally {
    await database.close();
  }
  return file;
}

export default async function setup(project: TestProject) {
  project.provide('pgliteSnapshot', await pgliteSnapshot());

  let template: Awaited<ReturnType<typeof createThrowAwayDatabase>> | undefined;
  if (process.env.TEST_DB === 'postgres') {
    template = await createThrowAwayDatabase();
    const pgDatabase = await openDatabase({ databaseUrl: template.url, dataDir: 'memory' });
    try {
      await migrate(pgDatabase);
    } finally {
      // A template must have no open connection while databases are created from it.
      await pgDatabase.close();
    }
  }
  project.provide('postgresTemplate', template?.name ?? '');

  return async () => {
    await template?.drop();
  };
}
