import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Config } from '../../config.ts';
import type { FileStorage } from './file-storage.ts';
import { createLocalStorage } from './local-storage.ts';
import { createS3Storage } from './s3-storage.ts';

type StorageConfig = Pick<
  Config,
  | 'FILE_STORAGE'
  | 'FILES_DIR'
  | 'DATA_DIR'
  | 'dataDir'
  | 'S3_ENDPOINT'
  | 'S3_BUCKET'
  | 'S3_REGION'
  | 'S3_ACCESS_KEY_ID'
  | 'S3_SECRET_ACCESS_KEY'
  | 'S3_FORCE_PATH_STYLE'
>;

/** The folder of the local driver: FILES_DIR, else DATA_DIR/files (next to PGlite's own files). */
export const localFilesDir = (c: Pick<Config, 'FILES_DIR' | 'DATA_DIR'>) => resolve(c.FILES_DIR ?? join(c.DATA_DIR, 'files'));

/**
 * The storage the configuration names. An in-memory database (tests) without FILES_DIR gets a
 * throw-away folder, removed when the app closes, so tests never write into ./data.
 */
export async function openFileStorage(c: StorageConfig): Promise<FileStorage> {
  if (c.FILE_STORAGE === 's3') {
    return await createS3Storage({
      endpoint: c.S3_ENDPOINT,
      bucket: c.S3_BUCKET!,
      region: c.S3_REGION,
      accessKeyId: c.S3_ACCESS_KEY_ID,
      secretAccessKey: c.S3_SECRET_ACCESS_KEY,
      forcePathStyle: c.S3_FORCE_PATH_STYLE,
    });
  }
  if (c.dataDir === 'memory' && !c.FILES_DIR)
    return createLocalStorage(await mkdtemp(join(tmpdir(), 'order-files-')), { removeOnClose: true });
  return createLocalStorage(localFilesDir(c));
}
