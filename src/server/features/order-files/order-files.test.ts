import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { Readable } from 'node:stream';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, loginAs, type TestApp } from '../../../../tests/helpers/test-app.ts';
import { fileForm, multipartBody } from '../../../../tests/helpers/multipart.ts';
import { createPaymentOrder } from '../payments/create-payment-order.ts';
import { seedPaidOrder } from '../../../../tests/fixtures/paid-orders.ts';
import { filesOfOrder, orderFor } from './order-files.ts';
import {
  DOCX,
  GIF,
  HTML_PAGE,
  JPEG,
  ole,
  PDF,
  PLAIN_ZIP,
  PNG,
  SVG_WITH_SCRIPT,
  WEBP,
  XLSX,
} from '../../../../tests/fixtures/file-bytes.ts';
import { SWEEP_GRACE_MS, sweepStoredObjects } from './sweep-objects.ts';

// Order files on the real app (decisions 140–142): every known attack is a test here. The local
// driver writes into a folder this test owns, so "nothing half-stored" is checked on the disk.

const MB = 1024 * 1024;
let t: TestApp;
let filesDir: string;
let owner: Awaited<ReturnType<typeof loginAs>>;
let alice: Awaited<ReturnType<typeof loginAs>>;
let mallory: Awaited<ReturnType<typeof loginAs>>;
let aliceOrder: string;
let malloryOrder: string;

const url = (order: string, file?: string) => `/api/v1/orders/${order}/files${file ? `/${file}` : ''}`;
const adminUrl = (order: string, file?: string) => `/api/v1/admin/orders/${order}/files${file ? `/${file}` : ''}`;
const upload = (who: { headers: Record<string, string> }, target: string, form: ReturnType<typeof multipartBody>) =>
  t.app.inject({ method: 'POST', url: target, headers: { ...who.headers, ...form.headers }, payload: form.payload });
const list = async (who: { headers: Record<string, string> }, order: string) => {
  const res = await t.app.inject({ method: 'GET', url: url(order), headers: who.headers });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().files as { id: string; name: string; size: number; contentType: string; uploadedBy: string }[];
};
/** Every object the storage holds, partial writes included. */
const onDisk = () =>
  readdirSync(filesDir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name));

beforeAll(async () => {
  filesDir = mkdtempSync(join(tmpdir(), 'order-files-test-'));
  // A quota small enough to test with a few MB; the per-file limit stays at its default (25 MB).
  t = await buildTestApp({ FILES_DIR: filesDir, ORDER_FILES_QUOTA_MB: '30' });
  owner = await loginAs(t, 'files.boss@example.com', 'admin');
  ({ customer: alice, orderId: aliceOrder } = await seedPaidOrder(t, 'files.alice@example.com'));
  ({ customer: mallory, orderId: malloryOrder } = await seedPaidOrder(t, 'files.mallory@example.com'));
});
afterAll(async () => {
  await t?.close();
  rmSync(filesDir, { recursive: true, force: true });
});

describe('uploading and downloading', () => {
  it('stores a file with its name, size, type from the bytes, side and sha-256; the founder sees it, and downloads are attachments', async () => {
    const res = await upload(alice, url(aliceOrder), fileForm('logo.png', PNG, 'text/html'));
    expect(res.statusCode, res.body).toBe(201);
    const file = res.json().file;
    expect(file).toMatchObject({ name: 'logo.png', size: PNG.length, contentType: 'image/png', uploadedBy: 'customer' });
    const [row] = await t.deps.database.query<{ sha256: string; uploader_user_id: string }>(
      'select sha256, uploader_user_id from order_files where id = $1',
      [file.id],
    );
    expect(row).toEqual({ sha256: createHash('sha256').update(PNG).digest('hex'), uploader_user_id: alice.user.id });

    const asAdmin = await t.app.inject({ method: 'GET', url: adminUrl(aliceOrder), headers: owner.headers });
    expect(asAdmin.json().files.map((f: { id: string }) => f.id)).toContain(file.id);

    const dl = await t.app.inject({ method: 'GET', url: url(aliceOrder, file.id), headers: alice.headers });
    expect(dl.statusCode).toBe(200);
    expect(dl.rawPayload.equals(PNG)).toBe(true);
    expect(dl.headers['content-type']).toBe('image/png');
    expect(dl.headers['content-disposition']).toBe(`attachment; filename="logo.png"; filename*=UTF-8''logo.png`);
    expect(dl.headers['x-content-type-options']).toBe('nosniff');
    expect(dl.headers['content-security-policy']).toMatch(/^sandbox;/);
    // A checked raster image may be shown inline (thumbnails), still sandboxed.
    const inline = await t.app.inject({ method: 'GET', url: `${url(aliceOrder, file.id)}?inline=1`, headers: alice.headers });
    expect(inline.headers['content-disposition']).toMatch(/^inline; /);
    expect(inline.headers['content-security-policy']).toMatch(/^sandbox;/);
  });

  it('decides every accepted type from the bytes, whatever the name says', async () => {
    const cases: [string, Buffer | string, string][] = [
      ['photo.txt', JPEG, 'image/jpeg'],
      ['anim.gif', GIF, 'image/gif'],
      ['image.bin', WEBP, 'image/webp'],
      ['brief.pdf', PDF, 'application/pdf'],
      ['copy.docx', DOCX, 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
      ['prices.xlsx', XLSX, 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
      ['assets.zip', PLAIN_ZIP, 'application/zip'],
      ['old.doc', ole('WordDocument'), 'application/msword'],
      ['old.xls', ole('Workbook'), 'application/vnd.ms-excel'],
      ['old.ppt', ole('PowerPoint Document'), 'application/vnd.ms-powerpoint'],
      ['notes.md', '# Pages\n\n- Home\n- About — über uns\n', 'text/markdown'],
      ['team.csv', 'name,role\nAsha,Founder\n', 'text/csv'],
      ['notes.txt', 'Just text, 3 < 4.\n', 'text/plain'],
    ];
    for (const [name, data, type] of cases) {
      const res = await upload(alice, url(aliceOrder), fileForm(name, data));
      expect(res.statusCode, `${name}: ${res.body}`).toBe(201);
      expect(res.json().file.contentType, name).toBe(type);
    }
  });

  it('refuses HTML named logo.png (415, clear message), other types, and stores nothing', async () => {
    const before = await list(alice, aliceOrder);
    const refused: [string, Buffer | string, RegExp][] = [
      ['logo.png', HTML_PAGE, /"logo\.png" was not accepted: it is a web page \(HTML\)\. Accepted are images/],
      ['page.txt', '  <html><body>hi</body></html>', /web page/],
      ['data.xml', '<?xml version="1.0"?><note>hi</note>', /XML document other than SVG/],
      ['setup.msi', ole('SummaryInformation'), /not a Word, Excel or PowerPoint/],
      ['app.exe', Buffer.from([0x4d, 0x5a, 0x90, 0, 3, 0, 0, 0, 0, 0]), /not one of the accepted types/],
      ['empty.txt', '', /empty/],
    ];
    for (const [name, data, message] of refused) {
      const res = await upload(alice, url(aliceOrder), fileForm(name, data, 'image/png'));
      expect(res.statusCode, `${name}: ${res.body}`).toBe(415);
      expect(res.json().message, name).toMatch(message);
    }
    expect(await list(alice, aliceOrder)).toEqual(before);
    expect(onDisk().filter((p) => p.includes(`${join(filesDir, 'tmp')}`))).toEqual([]);
  });

  it('keeps an SVG with a script as a file, but never serves it inline: attachment, nosniff, sandbox CSP', async () => {
    const res = await upload(alice, url(aliceOrder), fileForm('icon.svg', SVG_WITH_SCRIPT));
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().file.contentType).toBe('image/svg+xml');
    for (const query of ['', '?inline=1']) {
      const dl = await t.app.inject({ method: 'GET', url: url(aliceOrder, res.json().file.id) + query, headers: alice.headers });
      expect(dl.statusCode).toBe(200);
      expect(dl.headers['content-disposition'], query).toMatch(/^attachment; /);
      expect(dl.headers['x-content-type-options']).toBe('nosniff');
      expect(dl.headers['content-security-policy']).toMatch(/(^|;\s*)sandbox(;|$)/);
      expect(dl.body).toBe(SVG_WITH_SCRIPT);
    }
  });

  it('answers 415 to a body that is not multipart and 400 to a form without the "file" part', async () => {
    const json = await t.app.inject({ method: 'POST', url: url(aliceOrder), headers: alice.headers, payload: { file: 'x' } });
    expect(json.statusCode).toBe(415);
    expect(json.json().message).toMatch(/multipart\/form-data with one part named "file"/);
    const wrong = await upload(alice, url(aliceOrder), multipartBody([{ name: 'upload', filename: 'a.png', data: PNG }]));
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().message).toMatch(/part named "file"/);
    const none = await upload(alice, url(aliceOrder), multipartBody([{ name: 'note', data: 'hello' }]));
    expect(none.statusCode).toBe(400);
    expect(none.json().message).toMatch(/no file/);
    // A plain field before the file (as a browser form may send) is ignored.
    const withField = await upload(
      alice,
      url(aliceOrder),
      multipartBody([
        { name: 'note', data: 'our logo' },
        { name: 'file', filename: 'logo-2.png', data: PNG },
      ]),
    );
    expect(withField.statusCode, withField.body).toBe(201);
    // A body that does not match its boundary (a broken client): 400, never a 500.
    const broken = fileForm('a.png', PNG);
    const garbled = await t.app.inject({
      method: 'POST',
      url: url(aliceOrder),
      headers: { ...alice.headers, 'content-type': 'multipart/form-data; boundary=other' },
      payload: broken.payload,
    });
    expect(garbled.statusCode, garbled.body).toBe(400);
    expect(garbled.json().message).toMatch(/not a readable multipart\/form-data body/);
  });
});

describe('names', () => {
  it('strips path parts, NUL, control and bidi characters, and caps the name at 200 characters keeping the extension', async () => {
    const cases: [string, string][] = [
      ['../../etc/passwd.png', 'passwd.png'],
      ['..\\..\\windows\\logo.png', 'logo.png'],
      ['lo\u0000go\u0007.png', 'logo.png'],
      ['invoice\u202Egnp.exe', 'invoicegnp.exe'],
      ['\u2066secret\u2069 plan\u202A.png', 'secret plan.png'],
      ['..', 'file'],
      [`${'a'.repeat(300)}.png`, `${'a'.repeat(196)}.png`],
      ['Café Ünïcødé.png', 'Café Ünïcødé.png'],
    ];
    for (const [raw, expected] of cases) {
      const res = await upload(alice, url(aliceOrder), fileForm(raw, PNG));
      expect(res.statusCode, `${JSON.stringify(raw)}: ${res.body}`).toBe(201);
      const name = res.json().file.name as string;
      expect(name, JSON.stringify(raw)).toBe(expected);
      expect(name.length).toBeLessThanOrEqual(200);
      // The download offers the same clean name, RFC 5987-encoded.
      const dl = await t.app.inject({ method: 'GET', url: url(aliceOrder, res.json().file.id), headers: alice.headers });
      expect(dl.headers['content-disposition']).toContain(
        `filename*=UTF-8''${encodeURIComponent(expected).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)}`,
      );
      expect(dl.headers['content-disposition']).not.toMatch(/[\u0000-\u001f\u007f-\uffff]/);
    }
  });
});

describe('limits', () => {
  it('refuses a 26 MB file with 413, whether its length is declared or not; nothing stored, the order unchanged', async () => {
    const before = await list(alice, aliceOrder);
    const disk = onDisk().length;
    const big = fileForm('huge.png', Buffer.concat([PNG, Buffer.alloc(26 * MB)]));
    // With Content-Length: refused before the body is read.
    const declared = await upload(alice, url(aliceOrder), big);
    expect(declared.statusCode, declared.body).toBe(413);
    expect(declared.json().message).toMatch(/larger than 25 MB/);
    // Streamed without a length (chunked): the byte counter stops it at 25 MB.
    const streamed = await t.app.inject({
      method: 'POST',
      url: url(aliceOrder),
      headers: { ...alice.headers, ...big.headers },
      payload: Readable.from([big.payload]),
    });
    expect(streamed.statusCode, streamed.body).toBe(413);
    expect(streamed.json().message).toMatch(/larger than 25 MB/);
    expect(await list(alice, aliceOrder)).toEqual(before);
    expect(onDisk().length).toBe(disk);
  });

  it('an upload cut off halfway leaves nothing behind and the quota as it was', async () => {
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const before = await list(alice, aliceOrder);
    const usedBefore = before.reduce((a, f) => a + f.size, 0);
    const form = fileForm('cut.png', Buffer.concat([PNG, Buffer.alloc(8 * MB, 7)]));
    const { port } = new URL(address);
    const req = httpRequest({
      host: '127.0.0.1',
      port,
      method: 'POST',
      path: url(aliceOrder),
      headers: { ...alice.headers, ...form.headers, 'content-length': form.payload.length },
    });
    req.on('error', () => {});
    req.write(form.payload.subarray(0, form.payload.length / 2));
    // Wait until the server is writing the half-received file, then drop the connection.
    const tmp = join(filesDir, 'tmp');
    for (let i = 0; i < 200 && !onDisk().some((p) => p.startsWith(tmp)); i++) await new Promise((r) => setTimeout(r, 25));
    expect(
      onDisk().some((p) => p.startsWith(tmp)),
      'the upload was being stored',
    ).toBe(true);
    req.destroy();
    for (let i = 0; i < 200 && onDisk().some((p) => p.startsWith(tmp)); i++) await new Promise((r) => setTimeout(r, 25));
    expect(onDisk().filter((p) => p.startsWith(tmp))).toEqual([]);
    const after = await list(alice, aliceOrder);
    expect(after).toEqual(before);
    expect(after.reduce((a, f) => a + f.size, 0)).toBe(usedBefore);
  });

  it('20 parallel uploads that together pass the quota: the quota holds, and nothing of the refused ones stays', async () => {
    const { customer, orderId } = await seedPaidOrder(t, 'files.parallel@example.com');
    const each = 2 * MB; // 20 × 2 MB = 40 MB against a 30 MB quota: exactly 15 fit.
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        upload(customer, url(orderId), fileForm(`part-${i}.png`, Buffer.concat([PNG, Buffer.alloc(each - PNG.length, i)]))),
      ),
    );
    const codes = results.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 201)).toHaveLength(15);
    expect(codes.filter((c) => c === 413)).toHaveLength(5);
    expect(results.find((r) => r.statusCode === 413)!.json().message).toMatch(/may take 30 MB in all/);
    const files = await list(customer, orderId);
    expect(files).toHaveLength(15);
    expect(files.reduce((a, f) => a + f.size, 0)).toBeLessThanOrEqual(30 * MB);
    const [order] = await t.deps.database.query<{ id: string }>('select id from orders where public_id = $1', [orderId]);
    expect(onDisk().filter((p) => p.includes(order!.id))).toHaveLength(15);
    expect(onDisk().filter((p) => p.startsWith(join(filesDir, 'tmp')))).toEqual([]);
    // The order is full now: the next upload is refused before its body is read.
    const next = await upload(customer, url(orderId), fileForm('one-more.png', PNG));
    expect(next.statusCode).toBe(413);
    expect(next.json().message).toMatch(/may take 30 MB in all; 30 MB are used/);
  });
});

describe("another customer's order, another order's file", () => {
  it('answers every route with the same 404 for an order that is not yours, whether the file exists or not', async () => {
    const mine = await upload(alice, url(aliceOrder), fileForm('private.pdf', PDF));
    const fileId = mine.json().file.id as string;
    const ghost = '00000000-0000-4000-8000-000000000000';
    const notFound = { success: false, code: 'NOT_FOUND', message: 'Order not found.' };
    const form = fileForm('x.png', PNG);
    const attempts = [
      { method: 'GET' as const, url: url(aliceOrder) },
      { method: 'POST' as const, url: url(aliceOrder), headers: form.headers, payload: form.payload },
      { method: 'GET' as const, url: url(aliceOrder, fileId) },
      { method: 'GET' as const, url: url(aliceOrder, ghost) },
      { method: 'DELETE' as const, url: url(aliceOrder, fileId) },
      { method: 'DELETE' as const, url: url(aliceOrder, ghost) },
      { method: 'GET' as const, url: url('ORDNOSUCHORDER1') },
      { method: 'GET' as const, url: url('ORDNOSUCHORDER1', fileId) },
    ];
    for (const a of attempts) {
      const res = await t.app.inject({ ...a, headers: { ...mallory.headers, ...a.headers } });
      expect(res.statusCode, `${a.method} ${a.url}`).toBe(404);
      expect(res.json(), `${a.method} ${a.url}`).toEqual(notFound);
      expect(res.body).not.toContain('private.pdf');
    }
    // Without a session: 401 before anything else.
    expect((await t.app.inject({ method: 'GET', url: url(aliceOrder, fileId) })).statusCode).toBe(401);
    // Alice's file asked for under Mallory's own order: not found either.
    const crossed = await t.app.inject({ method: 'GET', url: url(malloryOrder, fileId), headers: mallory.headers });
    expect(crossed.statusCode).toBe(404);
    expect(crossed.json().message).toBe('File not found.');
    expect((await t.app.inject({ method: 'DELETE', url: url(malloryOrder, fileId), headers: mallory.headers })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: url(aliceOrder, fileId), headers: alice.headers })).statusCode).toBe(200);
  });

  it("file ids given to another feature (a review, a message) must be files of that order: another order's id is a 400", async () => {
    const mine = (await upload(alice, url(aliceOrder), fileForm('for-review.png', PNG))).json().file.id as string;
    const theirs = (await upload(mallory, url(malloryOrder), fileForm('theirs.png', PNG))).json().file.id as string;
    const order = await orderFor(t.deps, aliceOrder, { side: 'customer', userId: alice.user.id });
    expect((await filesOfOrder(t.deps.db, order, [mine, mine])).map((f) => f.id)).toEqual([mine]);
    await expect(filesOfOrder(t.deps.db, order, [mine, theirs])).rejects.toThrow(`Not a file of this order: ${theirs}.`);
    await expect(filesOfOrder(t.deps.db, order, ['not-a-uuid'])).rejects.toThrow('Not a file of this order: not-a-uuid.');
  });

  it('a checkout draft (advance not paid) has no files area: 404', async () => {
    const buyer = await loginAs(t, 'files.draft@example.com');
    await createPaymentOrder(t.deps, buyer.user, { kind: 'advance', acceptTerms: true } as Parameters<typeof createPaymentOrder>[2]);
    const [draft] = await t.deps.database.query<{ public_id: string }>('select public_id from orders where user_id = $1', [buyer.user.id]);
    const res = await upload(buyer, url(draft!.public_id), fileForm('logo.png', PNG));
    expect(res.statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: url(draft!.public_id), headers: buyer.headers })).statusCode).toBe(404);
  });

  it('a checkout draft has no files area for the agency either: the owner and staff get 404 on every route, and nothing is stored', async () => {
    const staff = await loginAs(t, 'files.staff@example.com', 'staff');
    const buyer = await loginAs(t, 'files.draft2@example.com');
    await createPaymentOrder(t.deps, buyer.user, { kind: 'advance', acceptTerms: true } as Parameters<typeof createPaymentOrder>[2]);
    const [draft] = await t.deps.database.query<{ id: string; public_id: string }>('select id, public_id from orders where user_id = $1', [
      buyer.user.id,
    ]);
    // A row left from before the drafts were refused: it must not be served or deleted through a draft either.
    const [old] = await t.deps.database.query<{ id: string }>(
      `insert into order_files (order_id, uploaded_by, name, size, content_type, sha256, storage_key)
       values ($1, 'agency', 'old.png', 1, 'image/png', $2, $3) returning id`,
      [draft!.id, 'a'.repeat(64), `orders/${draft!.id}/old-row`],
    );
    const objectsBefore = onDisk().length;
    for (const who of [owner, staff]) {
      expect((await upload(who, adminUrl(draft!.public_id), fileForm('design.png', PNG))).statusCode).toBe(404);
      expect((await t.app.inject({ method: 'GET', url: adminUrl(draft!.public_id), headers: who.headers })).statusCode).toBe(404);
      expect((await t.app.inject({ method: 'GET', url: adminUrl(draft!.public_id, old!.id), headers: who.headers })).statusCode).toBe(404);
      expect((await t.app.inject({ method: 'DELETE', url: adminUrl(draft!.public_id, old!.id), headers: who.headers })).statusCode).toBe(
        404,
      );
    }
    expect(onDisk().length).toBe(objectsBefore);
    const rows = await t.deps.database.query<{ n: number }>('select count(*)::int as n from order_files where order_id = $1', [draft!.id]);
    expect(rows[0]!.n).toBe(1);
  });
});

describe('the founder and deleting', () => {
  it(
    'the founder uploads (side agency, audited); the customer downloads it but cannot delete it; each ' +
      'side deletes its own (audited for the founder)',
    async () => {
      const auditCount = async (action: string) =>
        (await t.deps.database.query<{ n: number }>('select count(*)::int as n from admin_audit_log where action = $1', [action]))[0]!.n;
      const up = await upload(owner, adminUrl(aliceOrder), fileForm('design-v1.png', PNG));
      expect(up.statusCode, up.body).toBe(201);
      const design = up.json().file;
      expect(design.uploadedBy).toBe('agency');
      expect(await auditCount('order.file.upload')).toBeGreaterThanOrEqual(1);
      expect((await t.app.inject({ method: 'GET', url: url(aliceOrder, design.id), headers: alice.headers })).statusCode).toBe(200);

      const refused = await t.app.inject({ method: 'DELETE', url: url(aliceOrder, design.id), headers: alice.headers });
      expect(refused.statusCode).toBe(403);
      expect(refused.json().message).toBe('You can delete only files you uploaded.');

      const own = (await upload(alice, url(aliceOrder), fileForm('old-logo.png', PNG))).json().file;
      expect((await t.app.inject({ method: 'DELETE', url: adminUrl(aliceOrder, own.id), headers: owner.headers })).statusCode).toBe(403);
      const deleted = await t.app.inject({ method: 'DELETE', url: url(aliceOrder, own.id), headers: alice.headers });
      expect(deleted.statusCode, deleted.body).toBe(200);
      expect((await list(alice, aliceOrder)).map((f) => f.id)).not.toContain(own.id);
      expect((await t.app.inject({ method: 'GET', url: url(aliceOrder, own.id), headers: alice.headers })).statusCode).toBe(404);
      expect(onDisk().some((p) => p.endsWith(own.id))).toBe(false);

      const before = await auditCount('order.file.delete');
      expect((await t.app.inject({ method: 'DELETE', url: adminUrl(aliceOrder, design.id), headers: owner.headers })).statusCode).toBe(200);
      expect(await auditCount('order.file.delete')).toBe(before + 1);
    },
  );

  it('a file another feature uses (the in-use hook) cannot be deleted: 409, and it stays', async () => {
    const file = (await upload(alice, url(aliceOrder), fileForm('in-review.png', PNG))).json().file;
    t.deps.queries.fileInUse.push(async (_tx, id) => (id === file.id ? 'it is part of design review round 1' : null));
    const res = await t.app.inject({ method: 'DELETE', url: url(aliceOrder, file.id), headers: alice.headers });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe('This file cannot be deleted: it is part of design review round 1.');
    expect((await t.app.inject({ method: 'GET', url: url(aliceOrder, file.id), headers: alice.headers })).statusCode).toBe(200);
  });

  it('the public OpenAPI document lists the customer routes, not the founder ones', async () => {
    const paths = Object.keys((await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json().paths);
    expect(paths).toContain('/api/v1/orders/{orderId}/files');
    expect(paths).toContain('/api/v1/orders/{orderId}/files/{fileId}');
    expect(paths.filter((p) => p.startsWith('/api/v1/admin/orders/{orderId}/files'))).toEqual([]);
    const full = Object.keys((await t.app.inject({ method: 'GET', url: '/api/openapi.json', headers: owner.headers })).json().paths);
    expect(full).toContain('/api/v1/admin/orders/{orderId}/files/{fileId}');
  });
});

describe('the stored-object sweep (local driver)', () => {
  it('keeps an unnamed object through the grace period, then deletes it; named objects and fresh uploads stay', async () => {
    expect((await upload(alice, url(aliceOrder), fileForm('row-stays.png', PNG))).statusCode).toBe(201);
    const up = await upload(alice, url(aliceOrder), fileForm('row-dies.png', PNG));
    expect(up.statusCode, up.body).toBe(201);
    const [row] = await t.deps.database.query<{ storage_key: string }>('select storage_key from order_files where id = $1', [
      up.json().file.id,
    ]);
    const onDiskFor = (key: string) => onDisk().some((p) => p.endsWith(key.split('/').pop()!));
    await t.deps.database.query('delete from order_files where id = $1', [up.json().file.id]);
    const namedBefore = (await t.deps.database.query<{ storage_key: string }>('select storage_key from order_files'))
      .map((r) => r.storage_key)
      .filter(onDiskFor);
    expect(namedBefore.length).toBeGreaterThan(0);
    // An upload under way: its temporary object has no row yet.
    await t.deps.fileStorage.put('tmp/sweep-in-progress', Readable.from([PNG]), { maxBytes: 1024 });

    expect(await sweepStoredObjects(t.deps)).toBe(0);
    expect(onDiskFor(row!.storage_key)).toBe(true);
    // A day and a minute later the orphan and the abandoned temporary object go; the named ones stay.
    expect(await sweepStoredObjects(t.deps, new Date(Date.now() + SWEEP_GRACE_MS + 60_000))).toBe(2);
    expect(onDiskFor(row!.storage_key)).toBe(false);
    expect(onDiskFor('tmp/sweep-in-progress')).toBe(false);
    for (const key of namedBefore) expect(onDiskFor(key), key).toBe(true);
    const marks = await t.deps.database.query<{ n: number }>('select count(*)::int as n from stored_object_sweep_marks');
    expect(marks[0]!.n).toBe(0);
  });
});
