import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.ts';
import { loadConfig } from '../../config.ts';
import { openTestDatabase, loginAs, type TestApp } from '../../../../tests/helpers/test-app.ts';
import { seedPaidOrder } from '../../../../tests/fixtures/paid-orders.ts';
import { decryptAes128gcm, encryptAes128gcm, startFakePushService, type FakePushService } from '../../../../tests/fakes/push-service.ts';
import { mailOutbox } from '../../db/schema/platform.ts';
import { pushSent, pushSubscriptions } from '../../db/schema/notifications.ts';
import { NOTICE_KINDS } from '../../../contract/notification-preferences.ts';
import { runJobs } from '../jobs/run-jobs.ts';
import { NOTICE_TEMPLATE } from '../notices/send-notices.ts';
import { inQuietHours, noticeAllowed } from '../notification-preferences/allowed.ts';
import { createECDH, randomBytes } from 'node:crypto';

// Web Push and notification preferences (docs/decisions/342-notification-preferences.md,
// 343-web-push.md) against a local push service that decrypts each payload with the subscription's
// own keys and verifies the VAPID JWT with the public key the API hands out.

const OWNER = 'push-founder@example.com';
const DELAY_S = 300;

let t: TestApp;
let push: FakePushService;
beforeAll(async () => {
  push = await startFakePushService();
  const config = loadConfig(
    {
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      PUBLIC_URL: 'http://localhost:3000',
      ADMIN_STEP_UP: 'off',
      ADMIN_EMAILS: OWNER,
      PUSH_SERVICE_HOSTS: '127.0.0.1',
      ORDER_NOTIFY_DELAY_SECONDS: String(DELAY_S),
      VAPID_SUBJECT: 'mailto:founder@example.com',
    },
    { dataDir: 'memory', webDistDir: '/nonexistent' },
  );
  const { database, url, drop } = await openTestDatabase();
  const built = await buildApp({ ...config, DATABASE_URL: url }, { database, pollMail: false, pushAgent: push.agent });
  t = { ...built, close: async () => (await built.app.close(), await database.close(), await drop()) };
}, 180_000);
afterAll(async () => {
  await t?.close();
  await push?.close();
});

let n = 0;
const unique = (who: string) => `push-${who}-${++n}-${Date.now()}@example.com`;
const api = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, headers: Record<string, string> = {}, payload?: unknown) =>
  t.app.inject({ method, url: `/api/v1/${path}`, headers, ...(payload === undefined ? {} : { payload: payload as object }) });

/** A device of `who` on the fake push service, registered through the API. */
async function device(headers: Record<string, string>, deviceName = 'Test phone') {
  const sub = push.subscribe();
  const res = await api('POST', 'push/subscriptions', headers, { endpoint: sub.endpoint, keys: sub.keys, deviceName });
  expect(res.statusCode, res.body).toBe(201);
  return { ...sub, apiId: res.json().id as string };
}

const pushesTo = (subscriptionId: string) => push.received.filter((p) => p.subscriptionId === subscriptionId);
const noQuietHours = { start: '00:00', end: '00:00', timeZone: 'Asia/Kolkata' };

describe('the fake push service itself', () => {
  it('decrypts what RFC 8291 encrypts for a subscription (checked against its own sender side)', () => {
    const ecdh = createECDH('prime256v1');
    const publicKey = ecdh.generateKeys();
    const auth = randomBytes(16);
    const body = encryptAes128gcm('{"hello":"world"}', { p256dh: publicKey.toString('base64url'), auth: auth.toString('base64url') });
    expect(decryptAes128gcm(body, { ecdh, publicKey, auth })).toBe('{"hello":"world"}');
  });
});

describe('notification preferences', () => {
  it('answers every kind on every channel with the defaults and quiet hours 22:00–08:00 IST', async () => {
    const { headers } = await loginAs(t, unique('prefs'));
    const res = await api('GET', 'user/notification-preferences', headers);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(Object.keys(body.channels)).toEqual(['email', 'push', 'whatsapp']);
    for (const channel of ['email', 'push', 'whatsapp'])
      expect(Object.keys(body.channels[channel]).sort()).toEqual([...NOTICE_KINDS].sort());
    expect(body.channels.email.order_paid).toBe(true);
    expect(body.channels.push.chat_human).toBe(true);
    expect(body.channels.whatsapp.payment_receipt).toBe(true);
    expect(body.channels.whatsapp.chat_human).toBe(false);
    expect(body.quietHours).toEqual({ start: '22:00', end: '08:00', timeZone: 'Asia/Kolkata' });
  });

  it('keeps what a PUT leaves out, and refuses an unknown kind or channel, a bad time or time zone (400)', async () => {
    const { headers } = await loginAs(t, unique('prefs-put'));
    const put = await api('PUT', 'user/notification-preferences', headers, {
      channels: { push: { stage_completed: false } },
      quietHours: { start: '23:30', end: '07:00', timeZone: 'Europe/Berlin' },
    });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json().channels.push.stage_completed).toBe(false);
    const again = await api('PUT', 'user/notification-preferences', headers, { channels: { email: { stage_completed: false } } });
    const prefs = again.json();
    expect(prefs.channels.push.stage_completed).toBe(false);
    expect(prefs.channels.email.stage_completed).toBe(false);
    expect(prefs.channels.push.review_opened).toBe(true);
    expect(prefs.quietHours).toEqual({ start: '23:30', end: '07:00', timeZone: 'Europe/Berlin' });
    expect((await api('GET', 'user/notification-preferences', headers)).json()).toEqual(prefs);

    for (const bad of [
      { channels: { push: { pizza_ready: true } } },
      { channels: { sms: { order_paid: true } } },
      { channels: { push: { order_paid: 'yes' } } },
      { quietHours: { start: '25:00', end: '08:00', timeZone: 'Asia/Kolkata' } },
      { quietHours: { start: '22:00', end: '08:00', timeZone: 'Mars/Olympus' } },
      { colour: 'blue' },
    ]) {
      const res = await api('PUT', 'user/notification-preferences', headers, bad);
      expect(res.statusCode, JSON.stringify(bad)).toBe(400);
    }
    expect((await api('GET', 'user/notification-preferences')).statusCode).toBe(401);
  });

  it('noticeAllowed: the choice per kind and channel, then quiet hours on the person’s clock (push and WhatsApp only)', async () => {
    const { user, headers } = await loginAs(t, unique('allowed'));
    const night = new Date('2026-11-29T18:00:00Z'); // 23:30 in India
    const day = new Date('2026-11-29T06:30:00Z'); // 12:00 in India
    const ask = (kind: (typeof NOTICE_KINDS)[number], channel: 'email' | 'push' | 'whatsapp', at: Date, available?: boolean) =>
      noticeAllowed(t.deps.db, { userId: user.id, kind, channel, at, available });
    expect(await ask('order_paid', 'push', day)).toBe(true);
    expect(await ask('order_paid', 'push', night)).toBe(false);
    expect(await ask('order_paid', 'whatsapp', night)).toBe(false);
    expect(await ask('order_paid', 'email', night)).toBe(true);
    // The live chat ignores quiet hours while the agency is available (the caller says so).
    expect(await ask('chat_human', 'push', night)).toBe(false);
    expect(await ask('chat_human', 'push', night, true)).toBe(true);
    await api('PUT', 'user/notification-preferences', headers, { channels: { email: { order_paid: false } } });
    expect(await ask('order_paid', 'email', day)).toBe(false);
    expect(inQuietHours({ start: '22:00', end: '08:00', timeZone: 'Asia/Kolkata' }, new Date('2026-11-29T02:29:00Z'))).toBe(true); // 07:59
    expect(inQuietHours({ start: '22:00', end: '08:00', timeZone: 'Asia/Kolkata' }, new Date('2026-11-29T02:30:00Z'))).toBe(false); // 08:00
    expect(inQuietHours({ start: '13:00', end: '14:00', timeZone: 'UTC' }, new Date('2026-11-29T13:15:00Z'))).toBe(true);
    expect(inQuietHours({ start: '08:00', end: '08:00', timeZone: 'UTC' }, night)).toBe(false);
  });
});

describe('push devices', () => {
  it('hands out the VAPID public key, stores a device (201 { id }), lists it without its endpoint and removes only one’s own', async () => {
    const key = await api('GET', 'push/key');
    expect(key.statusCode).toBe(200);
    expect(key.json().publicKey).toMatch(/^[A-Za-z0-9_-]{87}$/);

    const alice = await loginAs(t, unique('alice'));
    const bob = await loginAs(t, unique('bob'));
    const mine = await device(alice.headers, 'Alice’s laptop');
    const list = await api('GET', 'push/subscriptions', alice.headers);
    expect(list.json()).toEqual({
      subscriptions: [
        {
          id: mine.apiId,
          deviceName: 'Alice’s laptop',
          service: new URL(push.origin).host,
          createdAt: expect.any(String),
          lastSentAt: null,
        },
      ],
    });
    expect(JSON.stringify(list.json())).not.toContain(mine.endpoint);
    expect((await api('GET', 'push/subscriptions', bob.headers)).json()).toEqual({ subscriptions: [] });

    expect((await api('DELETE', `push/subscriptions/${mine.apiId}`, bob.headers)).statusCode).toBe(404);
    expect((await api('DELETE', 'push/subscriptions/00000000-0000-4000-8000-000000000000', alice.headers)).statusCode).toBe(404);
    expect((await api('DELETE', `push/subscriptions/${mine.apiId}`, alice.headers)).statusCode).toBe(200);
    expect((await api('GET', 'push/subscriptions', alice.headers)).json()).toEqual({ subscriptions: [] });
  });

  it('refuses a plain-http endpoint, a push service not in PUSH_SERVICE_HOSTS, bad keys, and strangers', async () => {
    const { headers } = await loginAs(t, unique('refused'));
    const { endpoint, keys } = push.subscribe();
    const post = (payload: unknown, h: Record<string, string> = headers) => api('POST', 'push/subscriptions', h, payload);
    expect((await post({ endpoint: endpoint.replace('https:', 'http:'), keys })).statusCode).toBe(400);
    expect((await post({ endpoint: 'https://push.evil.example/abc', keys })).statusCode).toBe(400);
    expect((await post({ endpoint, keys: { p256dh: 'not base64!', auth: keys.auth } })).statusCode).toBe(400);
    expect((await post({ endpoint, keys, colour: 'blue' })).statusCode).toBe(400);
    expect((await post({ endpoint, keys }, {})).statusCode).toBe(401);
    // Without a name, the device is named from its browser.
    const res = await api(
      'POST',
      'push/subscriptions',
      { ...headers, 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Chrome/140.0 Safari/537.36' },
      { endpoint, keys },
    );
    expect(res.statusCode).toBe(201);
    expect((await api('GET', 'push/subscriptions', headers)).json().subscriptions[0].deviceName).toBe('Chrome on Linux');
  });
});

describe('pushes', () => {
  it('a visitor asking for a person reaches every agency device that allows it, encrypted and VAPID-signed, once per chat', async () => {
    const owner = await loginAs(t, OWNER, 'admin');
    const staff = await loginAs(t, unique('staff'), 'staff');
    const customer = await loginAs(t, unique('bystander'));
    for (const who of [owner, staff]) await api('PUT', 'user/notification-preferences', who.headers, { quietHours: noQuietHours });
    const phone = await device(owner.headers, 'Founder phone');
    const staffPhone = await device(staff.headers);
    const customerPhone = await device(customer.headers);
    const publicKey = (await api('GET', 'push/key')).json().publicKey;

    const chatId = 'c'.repeat(32);
    await t.deps.events.publishAlone('chat.human', { chatId, at: new Date() });
    await t.deps.events.publishAlone('chat.human', { chatId, at: new Date() });
    await t.deps.jobs.runDue();
    const got = await push.waitFor((p) => p.subscriptionId === phone.id);
    expect(got.json).toEqual({
      kind: 'chat_human',
      title: 'A visitor asks for you',
      body: 'Someone is waiting in the live chat.',
      url: `/adminChat?chat=${chatId}`,
      tag: `chat:${chatId}`,
    });
    expect(got.vapid.publicKey).toBe(publicKey);
    expect(got.vapid).toMatchObject({ aud: push.origin, sub: 'mailto:founder@example.com' });
    expect(got.headers).toMatchObject({ contentEncoding: 'aes128gcm', urgency: 'high', ttl: '3600' });
    expect(pushesTo(phone.id)).toHaveLength(1);
    expect(pushesTo(staffPhone.id)).toHaveLength(1);
    expect(pushesTo(customerPhone.id)).toHaveLength(0);
    expect(push.refused).toEqual([]);
    const [row] = await t.deps.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.id, phone.apiId));
    expect(row!.lastSentAt).not.toBeNull();
  });

  it('deletes a subscription the push service answers 410 for, and sends nothing a person turned off or during their quiet hours', async () => {
    const owner = await loginAs(t, OWNER, 'admin');
    await api('PUT', 'user/notification-preferences', owner.headers, {
      quietHours: noQuietHours,
      channels: { push: { chat_human: true } },
    });
    const old = await device(owner.headers, 'Old tablet');
    push.gone(old.id);
    await t.deps.events.publishAlone('chat.human', { chatId: 'g'.repeat(32), at: new Date() });
    await t.deps.jobs.runDue();
    expect(await t.deps.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.id, old.apiId))).toEqual([]);
    expect((await api('GET', 'push/subscriptions', owner.headers)).json().subscriptions.map((s: { id: string }) => s.id)).not.toContain(
      old.apiId,
    );

    // Nothing is stored for the founder (a staff member who allows it still gets theirs).
    const storedFor = async (chatId: string) =>
      (
        await t.deps.db
          .select()
          .from(pushSent)
          .where(and(eq(pushSent.userId, owner.user.id), eq(pushSent.dedupeKey, `chat:${chatId}`)))
      ).length;
    await api('PUT', 'user/notification-preferences', owner.headers, { channels: { push: { chat_human: false } } });
    await t.deps.events.publishAlone('chat.human', { chatId: 'o'.repeat(32), at: new Date() });
    expect(await storedFor('o'.repeat(32))).toBe(0);
    await api('PUT', 'user/notification-preferences', owner.headers, {
      channels: { push: { chat_human: true } },
      quietHours: { start: '00:00', end: '23:59', timeZone: 'Asia/Kolkata' },
    });
    await t.deps.events.publishAlone('chat.human', { chatId: 'q'.repeat(32), at: new Date(new Date().setUTCHours(12, 0, 0, 0)) });
    expect(await storedFor('q'.repeat(32))).toBe(0);
    await api('PUT', 'user/notification-preferences', owner.headers, { quietHours: noQuietHours });
    await device(owner.headers, 'New phone');
    await t.deps.events.publishAlone('chat.human', { chatId: 'r'.repeat(32), at: new Date() });
    expect(await storedFor('r'.repeat(32))).toBe(1);
  });

  it('tells the founder of a paid order and the customer of the agency’s reply, with links and no text', async () => {
    const owner = await loginAs(t, OWNER, 'admin');
    await api('PUT', 'user/notification-preferences', owner.headers, { quietHours: noQuietHours });
    const ownerPhone = await device(owner.headers);
    const email = unique('buyer');
    const buyer = await loginAs(t, email);
    await api('PUT', 'user/notification-preferences', buyer.headers, { quietHours: noQuietHours });
    const buyerPhone = await device(buyer.headers);
    const { orderId } = await seedPaidOrder(t, email);
    await t.deps.jobs.runDue();
    const paid = await push.waitFor((p) => p.subscriptionId === ownerPhone.id && (p.json as { kind: string }).kind === 'order_paid');
    expect(paid.json).toMatchObject({ title: `Order ${orderId} is paid`, url: `/admin/orders/${orderId}` });
    const receipt = await push.waitFor(
      (p) => p.subscriptionId === buyerPhone.id && (p.json as { kind: string }).kind === 'payment_receipt',
    );
    expect(receipt.json).toMatchObject({ url: `/status/${orderId}?tab=payments` });

    const msg = await api('POST', `admin/orders/${orderId}/messages`, owner.headers, { text: 'Secret launch plans inside' });
    expect(msg.statusCode, msg.body).toBe(201);
    await t.deps.jobs.runDue();
    const reply = await push.waitFor((p) => p.subscriptionId === buyerPhone.id && (p.json as { kind: string }).kind === 'agency_reply');
    expect(reply.json).toMatchObject({ url: `/status/${orderId}?tab=messages` });
    expect(reply.text).not.toContain('Secret');
  });
});

describe('a support request past its first-response target', () => {
  it('is pushed to the agency once per wait, and again after the customer writes again (docs/decisions/350-support-overdue-push.md)', async () => {
    const owner = await loginAs(t, OWNER, 'admin');
    await api('PUT', 'user/notification-preferences', owner.headers, { quietHours: noQuietHours });
    const ownerPhone = await device(owner.headers, 'Owner tablet');
    const { orderId } = await seedPaidOrder(t, unique('waiting'));
    const hours = t.deps.config.SUPPORT_FIRST_RESPONSE_HOURS;
    const since = new Date(Date.now() - (hours + 1) * 3_600_000);
    const [request] = await t.deps.database.query<{ id: string }>(
      `insert into support_requests (order_id, title, description, category, state, waiting_since)
       select id, 'Form broken', 'The form does not send', 'bug', 'open', $2 from orders where public_id = $1 returning id`,
      [orderId, since.toISOString()],
    );
    const overdueTo = () => pushesTo(ownerPhone.id).filter((p) => (p.json as { url: string }).url === `/admin/support/${request!.id}`);

    await runJobs(t.deps);
    await t.deps.jobs.runDue();
    await push.waitFor((p) => p.subscriptionId === ownerPhone.id && (p.json as { url: string }).url === `/admin/support/${request!.id}`);
    expect(overdueTo()[0]!.json).toMatchObject({ kind: 'support_request', body: 'A support request is waiting past its response target.' });
    // The next ticks announce nothing more for the same wait.
    await runJobs(t.deps);
    await t.deps.jobs.runDue();
    expect(overdueTo()).toHaveLength(1);
    // The customer writes again a minute later: a new wait, announced once it is past the target too.
    const again = new Date(Date.now() + 60_000);
    await t.deps.database.query('update support_requests set waiting_since = $2 where id = $1', [request!.id, again.toISOString()]);
    const later = new Date(again.getTime() + (hours + 0.5) * 3_600_000);
    await runJobs(t.deps, new Date(again.getTime() + 60_000));
    await t.deps.jobs.runDue(new Date(again.getTime() + 60_000));
    expect(overdueTo()).toHaveLength(1);
    await runJobs(t.deps, later);
    await t.deps.jobs.runDue(later);
    await expect.poll(() => overdueTo().length).toBe(2);
  });
});

describe('the batched order e-mails follow the same choices', () => {
  it('leaves out of the customer’s batch what they turned off for e-mail, and sends nothing when all of it is off', async () => {
    const owner = await loginAs(t, OWNER, 'admin');
    const email = unique('mailprefs');
    const { customer, orderId } = await seedPaidOrder(t, email);
    await runJobs(t.deps, new Date(Date.now() + (DELAY_S + 5) * 1000));
    await api('PUT', 'user/notification-preferences', customer.headers, { channels: { email: { agency_reply: false } } });
    expect((await api('POST', `admin/orders/${orderId}/messages`, owner.headers, { text: 'Hello' })).statusCode).toBe(201);
    await runJobs(t.deps, new Date(Date.now() + (DELAY_S + 5) * 1000));
    const mails = await t.deps.db
      .select()
      .from(mailOutbox)
      .where(and(eq(mailOutbox.toAddress, email), eq(mailOutbox.template, NOTICE_TEMPLATE)));
    expect(mails).toEqual([]);

    await api('PUT', 'user/notification-preferences', customer.headers, { channels: { email: { agency_reply: true } } });
    expect((await api('POST', `admin/orders/${orderId}/messages`, owner.headers, { text: 'Hello again' })).statusCode).toBe(201);
    await runJobs(t.deps, new Date(Date.now() + (DELAY_S + 5) * 1000));
    const after = await t.deps.db
      .select()
      .from(mailOutbox)
      .where(and(eq(mailOutbox.toAddress, email), eq(mailOutbox.template, NOTICE_TEMPLATE)));
    expect(after).toHaveLength(1);
    expect(after[0]!.textBody).toContain('1 new message');
  });
});
