// Vitest's globalSetup (vite.config.ts): the migrations run ONCE per run, and every test file starts
// from a copy of the result instead of running them itself (docs/decisions/205-tests-start-from-a-migrated-copy.md).
// - PGlite: the migrated data directory, dumped as a tarball (kept between runs, see snapshotKey);
//   each file's in-memory PGlite loads it (`loadDataDir`), which also skips PGlite's initdb.
// - PostgreSQL (TEST_DB=postgres): a migrated template database; each throw-away database is
//   `create database … template` it.
// - Both PGlite data directories (empty after initdb, and migrated) also as folders, which a test
//   copies into the DATA_DIR of a child process or a script instead of letting PGlite run initdb.
// Tests of the migrations themselves (src/server/db/*.test.ts, the multi-instance start-up) still
// open empty databases and migrate them.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../../src/server/db/client.ts';
import { migrate, migrationFiles, readMigration } from '../../src/server/db/migrate.ts';
import { createThrowAwayDatabase } from './throw-away-database.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A file holding the migrated PGlite data directory (tar). */
    pgliteSnapshot: string;
    /** A file holding an initialised, empty PGlite data directory (tar): initdb done, no migration. */
    pgliteEmptySnapshot: string;
    /**
     * The same two as folders on disk, for processes that open a PGlite folder themselves (a
     * DATA_DIR): a test copies one instead of having PGlite run initdb (docs/decisions/305-slow-test-files.md).
     */
    pgliteMigratedDir: string;
    pgliteEmptyDir: string;
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

/** Written aside and renamed, so a parallel run never reads half a file (or half a folder). */
function writeAside(target: string, write: (aside: string) => void | Promise<void>) {
  const aside = `${target}.${process.pid}`;
  rmSync(aside, { recursive: true, force: true });
  return Promise.resolve(write(aside)).then(() => {
    if (existsSync(target)) rmSync(aside, { recursive: true, force: true });
    else renameSync(aside, target);
  });
}

async function pgliteSnapshots() {
  const base = join(CACHE_DIR, `pglite-${snapshotKey()}`);
  const files = { migrated: `${base}.tar`, empty: `${base}-empty.tar`, migratedDir: `${base}-migrated.d`, emptyDir: `${base}-empty.d` };
  if (!existsSync(files.migrated) || !existsSync(files.empty)) {
    mkdirSync(CACHE_DIR, { recursive: true });
    const database = await openDatabase({ dataDir: 'memory' });
    try {
      const client = (database.db as unknown as { $client: PGlite }).$client;
      // Uncompressed: gunzip in every file would cost more than reading ~45 MB from the page cache.
      const dump = async (file: string) =>
        writeAside(file, async (aside) => writeFileSync(aside, Buffer.from(await (await client.dumpDataDir('none')).arrayBuffer())));
      await dump(files.empty);
      await migrate(database);
      await dump(files.migrated);
    } finally {
      await database.close();
    }
  }
  // The folders: PGlite itself unpacks a tarball into a folder (`loadDataDir` on a data directory),
  // and a clean close leaves no postmaster.pid (the scripts refuse a folder that has one).
  for (const [tar, dir] of [
    [files.migrated, files.migratedDir],
    [files.empty, files.emptyDir],
  ] as const) {
    if (existsSync(join(dir, 'PG_VERSION'))) continue;
    await writeAside(dir, async (aside) => {
      const client = new PGlite(aside, { loadDataDir: new Blob([readFileSync(tar)]) });
      await client.waitReady;
      await client.close();
      rmSync(join(aside, 'postmaster.pid'), { force: true });
    });
  }
  // Older snapshots (of other migrations) are of no further use.
  for (const old of readdirSync(CACHE_DIR)) {
    if (old.startsWith('pglite-') && !old.startsWith(basename(base))) rmSync(join(CACHE_DIR, old), { recursive: true, force: true });
  }
  return files;
}

export default async function setup(project: TestProject) {
  const pglite = await pgliteSnapshots();
  project.provide('pgliteSnapshot', pglite.migrated);
  project.provide('pgliteEmptySnapshot', pglite.empty);
  project.provide('pgliteMigratedDir', resolve(pglite.migratedDir));
  project.provide('pgliteEmptyDir', resolve(pglite.emptyDir));

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
