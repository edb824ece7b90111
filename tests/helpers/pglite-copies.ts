// Copies of the run's PGlite databases (made once by tests/helpers/global-setup.ts) for tests that
// need a PGlite other than buildTestApp's: an empty one to restore into, or a data directory on disk
// that a child process or a script opens (its DATA_DIR). PGlite's initdb costs 10–50 s on this
// machine; loading or copying a copy costs about a second (docs/decisions/305-slow-test-files.md).
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { inject } from 'vitest';
import { openDatabase, type Database } from '../../src/server/db/client.ts';

let empty: Blob | undefined;

/** An in-memory PGlite after initdb and before any migration: an empty database to restore into. */
export async function openEmptyPglite(): Promise<Database> {
  const file = inject('pgliteEmptySnapshot');
  if (file && !empty) empty = new Blob([readFileSync(file)]);
  return openDatabase({ dataDir: 'memory', loadDataDir: empty });
}

/**
 * Fills the folder `dir` with a PGlite data directory — the run's migrated database, or an empty
 * one (initdb done) — and returns `dir`. Without the global setup's copies (another config) the
 * folder is left as it is, and PGlite initialises it when it is first opened.
 */
export function pgliteFolder(dir: string, kind: 'migrated' | 'empty' = 'migrated'): string {
  const from = kind === 'migrated' ? inject('pgliteMigratedDir') : inject('pgliteEmptyDir');
  mkdirSync(dir, { recursive: true });
  if (from && existsSync(join(from, 'PG_VERSION'))) cpSync(from, dir, { recursive: true });
  return dir;
}

/**
 * Puts the initialised PGlite template beside a server build's folder `outDir` (where
 * scripts/build-server.mjs makes it, stamped with PGlite's version), so the build finds it and
 * skips its initdb.
 */
export function seedPgliteTemplate(outDir: string) {
  const template = join(outDir, 'pglite-template');
  if (!inject('pgliteEmptyDir')) return;
  pgliteFolder(template, 'empty');
  const version = JSON.parse(readFileSync('node_modules/@electric-sql/pglite/package.json', 'utf8')).version as string;
  writeFileSync(join(template, '.pglite-version'), version);
}
