import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readdir } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Database } from '../../db/client.ts';
import { ObjectMissingError, type FileStorage } from '../../integrations/storage/file-storage.ts';

// `npm run db:backup` / `db:restore` carry the order files beside the database (decision 140):
// BACKUP.files/ holds every file the backed-up rows name, at its storage key. Through the storage
// interface, so it works for both drivers, and a backup of a local site restores into S3 and back.

export interface FilesSummary {
  files: number;
  bytes: number;
  /** Rows whose bytes were not in the storage (reported, not fatal: the rest is still saved). */
  missing: string[];
}

/** Copies the bytes of every order file the database names into `dir`, checking each sha-256. */
export async function backupOrderFiles(database: Database, storage: FileStorage, dir: string): Promise<FilesSummary> {
  const rows = await database.query<{ storage_key: string; sha256: string }>(
    'select storage_key, sha256 from order_files order by storage_key',
  );
  const summary: FilesSummary = { files: 0, bytes: 0, missing: [] };
  for (const row of rows) {
    let body;
    try {
      body = await storage.get(row.storage_key);
    } catch (err) {
      if (err instanceof ObjectMissingError) {
        summary.missing.push(row.storage_key);
        continue;
      }
      throw err;
    }
    const target = join(dir, ...row.storage_key.split('/'));
    await mkdir(dirname(target), { recursive: true });
    const hash = createHash('sha256');
    let size = 0;
    const count = new Transform({
      transform(chunk: Buffer, _e, done) {
        hash.update(chunk);
        size += chunk.length;
        done(null, chunk);
      },
    });
    await pipeline(body, count, createWriteStream(target));
    if (hash.digest('hex') !== row.sha256)
      throw new Error(`${row.storage_key}: the stored bytes do not match their sha-256 (the file is damaged)`);
    summary.files++;
    summary.bytes += size;
  }
  return summary;
}

/** Puts every file under `dir` (as written by backupOrderFiles) back into the storage at its key. */
export async function restoreOrderFiles(storage: FileStorage, dir: string): Promise<FilesSummary> {
  const summary: FilesSummary = { files: 0, bytes: 0, missing: [] };
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  for (const e of entries) {
    if (!e.isFile()) continue;
    const key = relative(dir, join(e.parentPath, e.name)).split(sep).join('/');
    if (!key.startsWith('orders/')) continue;
    const { size } = await storage.put(key, createReadStream(join(e.parentPath, e.name)), { maxBytes: Number.MAX_SAFE_INTEGER });
    summary.files++;
    summary.bytes += size;
  }
  return summary;
}
