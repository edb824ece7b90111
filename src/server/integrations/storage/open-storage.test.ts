import { describe, expect, it } from 'vitest';
import { resolve } from 'node:path';
import { loadConfig } from '../../config.ts';
import { localFilesDir } from './open-storage.ts';

// The operator's side of the file storage: a wrong setting stops the server with the
// variable's name.
describe('file storage configuration', () => {
  it('defaults to a local folder under DATA_DIR, 25 MB per file and 500 MB per order', () => {
    const c = loadConfig({ DATA_DIR: '/var/lib/webagency/data' });
    expect(c.FILE_STORAGE).toBe('local');
    expect(localFilesDir(c)).toBe('/var/lib/webagency/data/files');
    expect(localFilesDir(loadConfig({ FILES_DIR: 'uploads' }))).toBe(resolve('uploads'));
    expect([c.MAX_UPLOAD_MB, c.ORDER_FILES_QUOTA_MB]).toEqual([25, 500]);
  });

  it('refuses an unknown driver, S3 without a bucket, one S3 key without the other, and limits that are not positive', () => {
    expect(() => loadConfig({ FILE_STORAGE: 'ftp' })).toThrow(/FILE_STORAGE/);
    expect(() => loadConfig({ FILE_STORAGE: 's3' })).toThrow(/S3_BUCKET: required when FILE_STORAGE=s3/);
    expect(() => loadConfig({ FILE_STORAGE: 's3', S3_BUCKET: 'b', S3_ACCESS_KEY_ID: 'AKIA' })).toThrow(/set both or neither/);
    expect(() => loadConfig({ S3_ENDPOINT: 'minio:9000' })).toThrow(/S3_ENDPOINT must be a URL/);
    expect(() => loadConfig({ MAX_UPLOAD_MB: '0' })).toThrow(/MAX_UPLOAD_MB/);
    expect(() => loadConfig({ ORDER_FILES_QUOTA_MB: 'lots' })).toThrow(/ORDER_FILES_QUOTA_MB/);
    const s3 = loadConfig({ FILE_STORAGE: 's3', S3_BUCKET: 'files', S3_FORCE_PATH_STYLE: '1', MAX_UPLOAD_MB: '0.5' });
    expect([s3.S3_BUCKET, s3.S3_REGION, s3.S3_FORCE_PATH_STYLE, s3.MAX_UPLOAD_MB]).toEqual(['files', 'us-east-1', true, 0.5]);
  });
});
