import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type BuiltApp } from '../../app.ts';
import { loadConfig } from '../../config.ts';
import { openDatabase, type Database } from '../../db/client.ts';
import { createThrowAwayDatabase, loginAs, type TestApp } from '../../../../tests/helpers/test-app.ts';
import { fileForm } from '../../../../tests/helpers/multipart.ts';
import { startS3Fake, type S3Fake } from '../../../../tests/fakes/s3.ts';
import { seedPaidOrder } from '../../../../tests/fixtures/paid-orders.ts';
import { PDF, PNG } from '../../../../tests/fixtures/file-bytes.ts';
import { createS3Storage } from './s3-storage.ts';
import { SWEEP_GRACE_MS, sweepStoredObjects } from '../../features/order-files/sweep-objects.ts';
import type { FileStorage } from './file-storage.ts';

// FILE_STORAGE=s3 against a real S3-protocol server: two app instances share one database and one
// bucket, as several servers behind a load balancer do. A file uploaded through instance A
// downloads through instance B, and what B deletes is gone for A.

let s3: S3Fake;
let bucket: FileStorage;
const apps: BuiltApp[] = [];
const databases: Database[] = [];
let dropDatabase: (() => Promise<void>) | undefined;

const keys = async (prefix: string) => {
  const out: string[] = [];
  for await (const k of bucket.list(prefix)) out.push(k);
  return out;
};

beforeAll(async () => {
  s3 = await startS3Fake();
  bucket = await createS3Storage({
    endpoint: s3.endpoint,
    bucket: s3.bucket,
    region: 'us-east-1',
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
    forcePathStyle: true,
  });
  let url: string | undefined;
  if (process.env.TEST_DB === 'postgres') {
    const created = await createThrowAwayDatabase();
    url = created.url;
    dropDatabase = created.drop;
  }
  // PGlite: one in-memory database object shared by both instances (it cannot be opened twice).
  const shared = url ? undefined : await openDatabase({ dataDir: 'memory' });
  for (let i = 0; i < 2; i++) {
    const config = loadConfig(
      {
        NODE_ENV: 'test',
        LOG_LEVEL: process.env.DEBUG_S3 ? 'error' : 'silent',
        ADMIN_STEP_UP: 'off',
        ...(url ? { DATABASE_URL: url } : {}),
        MAX_UPLOAD_MB: '1',
        ...s3.env,
      },
      { dataDir: 'memory', webDistDir: '/nonexistent' },
    );
    const database = shared ?? (await openDatabase({ databaseUrl: url, dataDir: 'memory' }));
    if (!databases.includes(database)) databases.push(database);
    apps.push(await buildApp(config, { database, pollMail: false }));
  }
});
afterAll(async () => {
  for (const a of apps) await a.app.close();
  for (const d of databases) await d.close();
  await dropDatabase?.();
  await bucket?.close();
  await s3?.stop();
});

describe('the S3 driver, two instances, one bucket', () => {
  it('a file uploaded through instance A is listed and downloaded through instance B; deleted through B, it is gone for A', async () => {
    const [a, b] = apps as [BuiltApp, BuiltApp];
    const { customer, orderId } = await seedPaidOrder(a as TestApp, 's3.customer@example.com');
    const pdf = fileForm('brief.pdf', PDF);
    const up = await a.app.inject({
      method: 'POST',
      url: `/api/v1/orders/${orderId}/files`,
      headers: { ...customer.headers, ...pdf.headers },
      payload: pdf.payload,
    });
    expect(up.statusCode, up.body).toBe(201);
    const file = up.json().file;
    expect(file.contentType).toBe('application/pdf');

    const listed = await b.app.inject({ method: 'GET', url: `/api/v1/orders/${orderId}/files`, headers: customer.headers });
    expect(listed.json().files.map((f: { id: string }) => f.id)).toEqual([file.id]);
    const dl = await b.app.inject({ method: 'GET', url: `/api/v1/orders/${orderId}/files/${file.id}`, headers: customer.headers });
    expect(dl.statusCode).toBe(200);
    expect(dl.rawPayload.equals(PDF)).toBe(true);
    expect(dl.headers['content-disposition']).toMatch(/^attachment; /);

    // In the bucket: the object under its own key, nothing left under tmp/.
    const [order] = await a.deps.database.query<{ id: string }>('select id from orders where public_id = $1', [orderId]);
    expect(await keys(`orders/${order!.id}/`)).toEqual([`orders/${order!.id}/${file.id}`]);
    expect(await keys('tmp/')).toEqual([]);

    const admin = await loginAs(b as TestApp, 's3.boss@example.com', 'admin');
    const png = fileForm('design.png', PNG);
    const design = await b.app.inject({
      method: 'POST',
      url: `/api/v1/admin/orders/${orderId}/files`,
      headers: { ...admin.headers, ...png.headers },
      payload: png.payload,
    });
    expect(design.statusCode, design.body).toBe(201);
    const viaA = await a.app.inject({
      method: 'GET',
      url: `/api/v1/orders/${orderId}/files/${design.json().file.id}`,
      headers: customer.headers,
    });
    expect(viaA.rawPayload.equals(PNG)).toBe(true);

    expect(
      (await b.app.inject({ method: 'DELETE', url: `/api/v1/orders/${orderId}/files/${file.id}`, headers: customer.headers })).statusCode,
    ).toBe(200);
    expect(
      (await a.app.inject({ method: 'GET', url: `/api/v1/orders/${orderId}/files/${file.id}`, headers: customer.headers })).statusCode,
    ).toBe(404);
    expect(await bucket.stat(`orders/${order!.id}/${file.id}`)).toBeNull();
  });

  it('an upload over the limit (streamed, no declared length) leaves nothing in the bucket', async () => {
    const [a] = apps as [BuiltApp];
    const { customer, orderId } = await seedPaidOrder(a as TestApp, 's3.big@example.com');
    const before = await keys('');
    const form = fileForm('big.png', Buffer.concat([PNG, Buffer.alloc(2 * 1024 * 1024)]));
    // Streamed without a length, so the S3 driver's own byte limit is what stops it.
    const res = await a.app.inject({
      method: 'POST',
      url: `/api/v1/orders/${orderId}/files`,
      headers: { ...customer.headers, ...form.headers },
      payload: Readable.from([form.payload]),
    });
    expect(res.statusCode, res.body).toBe(413);
    expect(await keys('')).toEqual(before);
  });

  it('the sweep deletes an object whose row is gone once the grace period has passed, and keeps every named one', async () => {
    const [a] = apps as [BuiltApp];
    const { customer, orderId } = await seedPaidOrder(a as TestApp, 's3.sweep@example.com');
    const upload = async (name: string) => {
      const form = fileForm(name, PNG);
      const res = await a.app.inject({
        method: 'POST',
        url: `/api/v1/orders/${orderId}/files`,
        headers: { ...customer.headers, ...form.headers },
        payload: form.payload,
      });
      expect(res.statusCode, res.body).toBe(201);
      const [row] = await a.deps.database.query<{ storage_key: string }>('select storage_key from order_files where id = $1', [
        res.json().file.id,
      ]);
      return row!.storage_key;
    };
    const orphan = await upload('orphan.png');
    const kept = await upload('kept.png');
    // The row dies (an aborted transaction, a cascade): its object stays behind.
    await a.deps.database.query('delete from order_files where storage_key = $1', [orphan]);
    expect(await sweepStoredObjects(a.deps)).toBe(0);
    expect(await bucket.stat(orphan)).not.toBeNull();
    const later = new Date(Date.now() + SWEEP_GRACE_MS + 60_000);
    expect(await sweepStoredObjects(a.deps, later)).toBe(1);
    expect(await bucket.stat(orphan)).toBeNull();
    expect(await bucket.stat(kept)).not.toBeNull();
  });
});
