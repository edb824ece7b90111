// `npm run db:backup -- FILE` and `npm run db:restore -- FILE` (docs/operations.md "Back up").
// The database is the one the server would use: DATABASE_URL, else the PGlite files in DATA_DIR.
// The order files go beside the backup, in FILE.files/ (decision 140), whichever storage holds them.
import { existsSync, renameSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { envSchema } from '../src/server/config.ts';
import { openDatabase } from '../src/server/db/client.ts';
import { BackupError, backupDatabase, restoreDatabase } from '../src/server/db/backup.ts';
import { openFileStorage } from '../src/server/integrations/storage/open-storage.ts';
import { backupOrderFiles, restoreOrderFiles, type FilesSummary } from '../src/server/features/order-files/backup-files.ts';

const [command, file] = process.argv.slice(2);

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

if ((command !== 'backup' && command !== 'restore') || !file) {
  fail('Usage: npm run db:backup -- FILE   |   npm run db:restore -- FILE');
}

const env = envSchema
  .pick({
    DATABASE_URL: true,
    DATA_DIR: true,
    FILE_STORAGE: true,
    FILES_DIR: true,
    S3_ENDPOINT: true,
    S3_BUCKET: true,
    S3_REGION: true,
    S3_ACCESS_KEY_ID: true,
    S3_SECRET_ACCESS_KEY: true,
    S3_FORCE_PATH_STYLE: true,
  })
  .safeParse(process.env);
if (!env.success) fail(`Invalid environment: ${env.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
const { DATABASE_URL, DATA_DIR } = env.data;
if (env.data.FILE_STORAGE === 's3' && !env.data.S3_BUCKET) fail('Invalid environment: S3_BUCKET is required when FILE_STORAGE=s3');
const filesDir = `${file}.files`;
const where = DATABASE_URL ? new URL(DATABASE_URL).pathname.slice(1) + ' on PostgreSQL' : `PGlite in ${resolve(DATA_DIR)}`;

if (!DATABASE_URL) {
  // PGlite holds postmaster.pid while a process has the folder open; a second opener would see a
  // different database, so the server must be stopped first.
  if (existsSync(join(DATA_DIR, 'postmaster.pid'))) {
    fail(
      `${resolve(DATA_DIR)} is in use by a running server (postmaster.pid). Stop the server first.\n` +
        'If no server runs (it crashed), delete that postmaster.pid file and try again.',
    );
  }
  if (command === 'backup' && !existsSync(join(DATA_DIR, 'PG_VERSION')))
    fail(`No database in ${resolve(DATA_DIR)} (set DATA_DIR or DATABASE_URL).`);
}
if (command === 'backup' && (existsSync(file) || existsSync(filesDir)))
  fail(`${file} (or ${filesDir}) already exists; choose a new file name.`);
if (command === 'restore' && !existsSync(file)) fail(`${file} does not exist.`);

const database = await openDatabase({ databaseUrl: DATABASE_URL, dataDir: DATA_DIR });
const storage = await openFileStorage({ ...env.data, dataDir: DATA_DIR });
const started = Date.now();
try {
  let summary;
  let files: FilesSummary | undefined;
  if (command === 'backup') {
    // Written beside the target and renamed at the end: FILE only ever names a complete backup.
    const partial = `${file}.partial`;
    rmSync(partial, { force: true });
    try {
      summary = await backupDatabase(database, partial);
    } catch (err) {
      rmSync(partial, { force: true });
      throw err;
    }
    renameSync(partial, file);
    // The files the backed-up rows name (files are never changed in place, only added and deleted).
    const partialFiles = `${filesDir}.partial`;
    rmSync(partialFiles, { recursive: true, force: true });
    files = await backupOrderFiles(database, storage, partialFiles);
    if (existsSync(partialFiles)) renameSync(partialFiles, filesDir);
  } else {
    summary = await restoreDatabase(database, file);
    if (existsSync(filesDir)) files = await restoreOrderFiles(storage, filesDir);
    else if (summary.rows.order_files)
      console.warn(`${filesDir} is missing: the database names ${summary.rows.order_files} order files whose bytes were not restored.`);
  }
  const rows = Object.values(summary.rows).reduce((a, b) => a + b, 0);
  const verb = command === 'backup' ? `Backed up ${where} to ${file}` : `Restored ${file} into ${where}`;
  console.log(
    `${verb}: ${Object.keys(summary.rows).length} tables, ${rows} rows, ${summary.migrations.length} migrations (${Date.now() - started} ms).`,
  );
  if (files)
    console.log(
      `Order files (${storage.kind} storage ${command === 'backup' ? `→ ${filesDir}` : `← ${filesDir}`}): ${files.files} files, ${files.bytes} bytes.`,
    );
  if (files?.missing.length) console.warn(`Not in the file storage (not backed up): ${files.missing.join(', ')}`);
} catch (err) {
  if (err instanceof BackupError) fail(err.message);
  fail(`${command} failed: ${err instanceof Error ? err.message : String(err)}`);
} finally {
  await database.close();
  await storage.close();
}
