import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { assertKey, byteLimit, ObjectMissingError, type FileStorage } from './file-storage.ts';

export interface S3Settings {
  endpoint?: string;
  bucket: string;
  region: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  forcePathStyle: boolean;
}

const notFound = (err: unknown) => {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e?.name === 'NoSuchKey' || e?.name === 'NotFound' || e?.$metadata?.httpStatusCode === 404;
};

/**
 * Any S3-compatible object store (FILE_STORAGE=s3): AWS S3, MinIO, Ceph, R2, … so several
 * instances share the same files.
 *
 * An upload is first spooled to a local temporary file with the byte limit applied, then sent
 * with its exact length: a plain PutObject needs the length up front, and spooling keeps memory
 * flat (20 uploads of 25 MB do not sit in RAM) without the multipart-upload machinery.
 */
export async function createS3Storage(s: S3Settings): Promise<FileStorage> {
  // Loaded here, not at the top: the compiled server keeps packages external and hoists static
  // imports, so a static import would load the (large) SDK at every start-up, S3 or not.
  const { CopyObjectCommand, DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client } =
    await import('@aws-sdk/client-s3');
  const client = new S3Client({
    region: s.region,
    ...(s.endpoint ? { endpoint: s.endpoint } : {}),
    forcePathStyle: s.forcePathStyle,
    ...(s.accessKeyId && s.secretAccessKey ? { credentials: { accessKeyId: s.accessKeyId, secretAccessKey: s.secretAccessKey } } : {}),
    // The SDK's default CRC checksums on every request are not understood by several
    // S3-compatible stores; send and check them only where the API requires them.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  const Bucket = s.bucket;

  return {
    kind: 's3',
    async put(key, body, { maxBytes }) {
      assertKey(key);
      const dir = await mkdtemp(join(tmpdir(), 'upload-'));
      const spool = join(dir, 'body');
      try {
        const limit = byteLimit(maxBytes);
        await pipeline(body, limit, createWriteStream(spool));
        const size = limit.bytes();
        await client.send(new PutObjectCommand({ Bucket, Key: key, Body: createReadStream(spool), ContentLength: size }));
        return { size };
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
    async get(key) {
      try {
        const res = await client.send(new GetObjectCommand({ Bucket, Key: assertKey(key) }));
        return res.Body as Readable;
      } catch (err) {
        if (notFound(err)) throw new ObjectMissingError(key);
        throw err;
      }
    },
    async stat(key) {
      try {
        const res = await client.send(new HeadObjectCommand({ Bucket, Key: assertKey(key) }));
        return { size: res.ContentLength ?? 0 };
      } catch (err) {
        if (notFound(err)) return null;
        throw err;
      }
    },
    async move(from, to) {
      await client.send(new CopyObjectCommand({ Bucket, Key: assertKey(to), CopySource: `${Bucket}/${assertKey(from)}` }));
      await client.send(new DeleteObjectCommand({ Bucket, Key: from }));
    },
    async delete(key) {
      await client.send(new DeleteObjectCommand({ Bucket, Key: assertKey(key) }));
    },
    async *list(prefix) {
      let ContinuationToken: string | undefined;
      do {
        const page = await client.send(new ListObjectsV2Command({ Bucket, Prefix: prefix, ContinuationToken }));
        for (const o of page.Contents ?? []) if (o.Key) yield o.Key;
        ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (ContinuationToken);
    },
    async close() {
      client.destroy();
    },
  };
}
