import { randomBytes } from 'node:crypto';
import { TERMS_VERSION } from '../terms/terms-acceptance.ts';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { strFromU8, unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, loginAs, type TestApp } from '../../../../tests/helpers/test-app.ts';
import { fileForm } from '../../../../tests/helpers/multipart.ts';
import { passkeys } from '../../db/schema/account-security.ts';
import { chatConversations, chatMessages } from '../../db/schema/chat.ts';
import { invoices } from '../../db/schema/invoices.ts';
import { sessions } from '../../db/schema/platform.ts';
import { contactMessages, leads } from '../../db/schema/leads-and-contacts.ts';
import { orderFiles } from '../../db/schema/order-files.ts';
import { seedPaidOrder } from '../../../../tests/fixtures/paid-orders.ts';
import { PNG } from '../../../../tests/fixtures/file-bytes.ts';
import type { AccountData } from './collect-account-data.ts';
import { EXPORTS_PER_HOUR } from './export-limit.ts';

type ExportJson = AccountData & {
  invoiceFiles: Record<string, string>;
  orderFiles: { limitBytes: number; included: { name: string; path: string }[]; skipped: { name: string; reason: string }[] };
};

// "Download all my data" (decision 193), on the real app: the ZIP is unpacked and its JSON read.
// The attacks: another user's data (there is no id to pass, and nothing of B may appear in
// A's archive) and a flood of exports (429).

type Who = Awaited<ReturnType<typeof loginAs>>;
let t: TestApp;
let filesDir: string;
let alice: Who;
let bob: Who;
let aliceOrder: string;
let bobOrder: string;
const BIG = Buffer.concat([PNG, Buffer.alloc(4096, 7)]);

const exportOf = (headers: Record<string, string>, query = '') =>
  t.app.inject({ method: 'GET', url: `/api/v1/user/export${query}`, headers });
const upload = (who: Who, order: string, name: string, data: Buffer) => {
  const form = fileForm(name, data);
  return t.app.inject({
    method: 'POST',
    url: `/api/v1/orders/${order}/files`,
    headers: { ...who.headers, ...form.headers },
    payload: form.payload,
  });
};
const say = (who: Who, order: string, text: string) =>
  t.app.inject({ method: 'POST', url: `/api/v1/orders/${order}/messages`, headers: who.headers, payload: { text } });

/** Everything one person left: an order with a file and a message, a chat, a lead, a contact message. */
async function seedPerson(who: Who, order: string, tag: string) {
  expect((await upload(who, order, `${tag}-logo.png`, PNG)).statusCode).toBe(201);
  expect((await say(who, order, `Message from ${tag}`)).statusCode).toBe(201);
  // A chat left under the e-mail before signing in (no user id): it is theirs all the same.
  const chatId = randomBytes(16).toString('hex');
  await t.deps.db.insert(chatConversations).values({ id: chatId, contactEmail: who.user.email, lastMessage: `chat of ${tag}` });
  await t.deps.db.insert(chatMessages).values({ conversationId: chatId, sender: 'user', body: `Hello, ${tag} here` });
  await t.deps.db.insert(leads).values({ kind: 'email', email: who.user.email, page: `/pricing?${tag}` });
  await t.deps.db.insert(contactMessages).values({
    name: `${tag} Contact`,
    email: who.user.email,
    message: `contact from ${tag}`,
    phoneCode: '91',
    phoneNumber: '9876543210',
    address: `${tag} road`,
  });
  await t.deps.db
    .insert(passkeys)
    .values({ userId: who.user.id, credentialId: `cred-${tag}`, publicKey: `secret-key-of-${tag}`, name: `${tag}'s phone` });
}

async function unzip(res: { rawPayload: Buffer }) {
  const entries = unzipSync(new Uint8Array(res.rawPayload));
  return { entries, data: JSON.parse(strFromU8(entries['data.json']!)) as ExportJson };
}

beforeAll(async () => {
  filesDir = mkdtempSync(join(tmpdir(), 'account-export-test-'));
  // A file limit of about 2 KB: the 4 KB file does not fit, the small ones do.
  t = await buildTestApp({ FILES_DIR: filesDir, EXPORT_FILES_MAX_MB: String(2048 / (1024 * 1024)) });
  ({ customer: alice, orderId: aliceOrder } = await seedPaidOrder(t, 'export.alice@example.com'));
  ({ customer: bob, orderId: bobOrder } = await seedPaidOrder(t, 'export.bob@example.com'));
  await seedPerson(alice, aliceOrder, 'alice');
  await seedPerson(bob, bobOrder, 'bob');
  expect((await upload(alice, aliceOrder, 'big.png', BIG)).statusCode).toBe(201);
}, 120_000);
afterAll(async () => {
  await t?.close();
  rmSync(filesDir, { recursive: true, force: true });
});

describe('GET /user/export', () => {
  it('is a ZIP attachment with README.txt, data.json, the invoice PDFs and the order files', async () => {
    const res = await exportOf(alice.headers);
    expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="my-data-${new Date().toISOString().slice(0, 10)}.zip"`);
    const { entries, data } = await unzip(res);
    expect(strFromU8(entries['README.txt']!)).toContain('data.json');

    expect(data).toMatchObject({ format: 'webagency-account-export', version: 1 });
    expect(data.profile).toMatchObject({
      email: alice.user.email,
      name: alice.user.name,
      phone_code: '91',
      phone_number: '9876543210',
      address: 'Test street 1',
    });
    expect(data.sessions.length).toBeGreaterThan(0);
    expect(Object.keys(data.sessions[0]!).sort()).toEqual([
      'city',
      'createdAt',
      'current',
      'device',
      'expiresAt',
      'lastSeenAt',
      'signedOutAt',
      'userAgent',
    ]);
    expect(data.passkeys).toEqual([{ name: "alice's phone", createdAt: expect.any(String), lastUsedAt: null }]);
    // Her notification choices (the defaults here) and push devices (none), never a device's endpoint or keys.
    expect(data.notifications.preferences.quietHours).toEqual({ start: '22:00', end: '08:00', timeZone: 'Asia/Kolkata' });
    expect(data.notifications.preferences.channels.email.payment_due).toBe(true);
    expect(data.notifications.pushDevices).toEqual([]);

    const order = data.orders[0]!;
    expect(data.orders).toHaveLength(1);
    expect(order).toMatchObject({ id: aliceOrder, state: 'in_progress' });
    expect(order.stages.length).toBeGreaterThan(0);
    expect(order.installments.find((i: { kind: string }) => i.kind === 'advance')).toMatchObject({
      state: 'paid',
      payments: [expect.objectContaining({ state: 'paid' })],
    });
    expect(order.messages).toEqual([expect.objectContaining({ from: 'you', text: 'Message from alice' })]);
    expect(order.termsAccepted).toMatchObject({
      version: TERMS_VERSION,
      url: `${t.deps.config.publicUrl}/termsandconditions/${TERMS_VERSION}`,
    });
    // The link leads to the wording that was accepted (docs/decisions/272-accepted-terms-readable.md).
    const wording = await t.app.inject({ method: 'GET', url: new URL(order.termsAccepted!.apiUrl).pathname });
    expect(wording.statusCode).toBe(200);
    expect(wording.json().version).toBe(TERMS_VERSION);
    expect(data.chats).toEqual([
      expect.objectContaining({ messages: [expect.objectContaining({ from: 'you', text: 'Hello, alice here' })] }),
    ]);
    expect(data.leads).toEqual([expect.objectContaining({ page: '/pricing?alice' })]);
    expect(data.contactMessages).toEqual([expect.objectContaining({ message: 'contact from alice' })]);
    expect(data.referral).toMatchObject({ ordersReferred: [], cashback: [] });

    // Invoices: each one a PDF, named in data.json.
    const own = await t.deps.db.select().from(invoices).where(eq(invoices.userId, alice.user.id));
    expect(own.length).toBeGreaterThan(0);
    expect(data.invoices.map((i: { number: string }) => i.number)).toEqual(own.map((i) => i.number));
    for (const inv of own) {
      const path = data.invoiceFiles[inv.number] as string;
      expect(path).toMatch(/^invoices\/.+\.pdf$/);
      expect(strFromU8(entries[path]!.slice(0, 5))).toBe('%PDF-');
    }

    // Files: the small one is there byte for byte; the one past the limit is listed as left out.
    expect(Buffer.from(entries[`files/${aliceOrder}/alice-logo.png`]!)).toEqual(PNG);
    expect(data.orderFiles.included).toEqual([
      expect.objectContaining({ name: 'alice-logo.png', path: `files/${aliceOrder}/alice-logo.png` }),
    ]);
    expect(data.orderFiles.skipped).toEqual([
      expect.objectContaining({ name: 'big.png', size: BIG.length, reason: 'over the size limit of one export' }),
    ]);
    expect(entries[`files/${aliceOrder}/big.png`]).toBeUndefined();
  });

  it("never holds anything of another user: no id parameter, and nothing of Bob's in Alice's archive", async () => {
    const res = await exportOf(alice.headers, `?userId=${bob.user.id}&id=${bob.user.id}&email=${bob.user.email}`);
    expect(res.statusCode).toBe(200);
    const { entries, data } = await unzip(res);
    expect(data.profile.email).toBe(alice.user.email);
    const everything = Object.values(entries)
      .map((bytes) => Buffer.from(bytes).toString('latin1'))
      .join('\n');
    for (const mark of [
      bob.user.email,
      bob.user.id,
      bobOrder,
      'bob-logo',
      'Message from bob',
      'Hello, bob',
      'contact from bob',
      "bob's phone",
      '/pricing?bob',
    ]) {
      expect(everything, mark).not.toContain(mark);
    }
    expect(Object.keys(entries).filter((p) => p.startsWith('files/'))).toEqual([`files/${aliceOrder}/alice-logo.png`]);
    // Secrets stay out: token hashes, passkey keys.
    const hashes = (await t.deps.db.select({ h: sessions.tokenHash }).from(sessions).where(eq(sessions.userId, alice.user.id))).map(
      (r) => r.h,
    );
    for (const secret of [...hashes, alice.token, 'secret-key-of-alice']) expect(everything).not.toContain(secret);
    // Bob's own export is his.
    const his = await unzip(await exportOf(bob.headers));
    expect(his.data.profile.email).toBe(bob.user.email);
    expect(his.data.orders.map((o: { id: string }) => o.id)).toEqual([bobOrder]);
    expect((await exportOf({})).statusCode).toBe(401);
  });

  it(`allows ${EXPORTS_PER_HOUR} exports an hour per person, across sessions and in parallel, then 429`, async () => {
    const carol = await loginAs(t, 'export.carol@example.com');
    const second = await loginAs(t, 'export.carol@example.com');
    const flood = await Promise.all(Array.from({ length: 8 }, (_, i) => exportOf(i % 2 ? second.headers : carol.headers)));
    const codes = flood.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 200).length).toBeLessThanOrEqual(EXPORTS_PER_HOUR);
    expect(codes.every((c) => c === 200 || c === 429)).toBe(true);
    // Once the flood is over, what is left of the hour's exports can be used, and no more.
    let ok = codes.filter((c) => c === 200).length;
    while (ok < EXPORTS_PER_HOUR) {
      expect((await exportOf(carol.headers)).statusCode).toBe(200);
      ok++;
    }
    const refused = await exportOf(second.headers);
    expect(refused.statusCode).toBe(429);
    expect(refused.json().message).toMatch(/3 times an hour\. Please try again in \d+ minutes?/);
    // Another person is not affected.
    const dave = await loginAs(t, 'export.dave@example.com');
    expect((await exportOf(dave.headers)).statusCode).toBe(200);
  });

  it('an order file whose bytes are gone is listed as missing, and the archive still completes', async () => {
    const erin = await seedPaidOrder(t, 'export.erin@example.com');
    expect((await upload(erin.customer, erin.orderId, 'lost.png', PNG)).statusCode).toBe(201);
    const [file] = await t.deps.db.select().from(orderFiles).where(eq(orderFiles.name, 'lost.png'));
    await t.deps.fileStorage.delete(file!.storageKey);
    const { data } = await unzip(await exportOf(erin.customer.headers));
    expect(data.orderFiles.skipped).toEqual([expect.objectContaining({ name: 'lost.png', reason: 'missing from the file storage' })]);
  });
});
