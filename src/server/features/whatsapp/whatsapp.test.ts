import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { buildTestApp, loginAs, type TestApp } from '../../../../tests/helpers/test-app.ts';
import { payInstallment } from '../../../../tests/helpers/test-checkout.ts';
import { metaSignature, startFakeWhatsAppGraph } from '../../../../tests/fakes/whatsapp-graph.ts';
import { users } from '../../db/schema/platform.ts';
import { WHATSAPP_TEMPLATES } from '../../../contract/whatsapp.ts';
import { completeNextStage } from '../tracker/complete-next-stage.ts';
import { runJobs } from '../jobs/run-jobs.ts';
import { eq } from 'drizzle-orm';
import { sqlRows } from '../../lib/sql-rows.ts';

// WhatsApp notices against a local Graph API (docs/decisions/345-whatsapp-notices-and-consent.md):
// a template only with consent, at most one per order per 30 minutes, STOP turns it off, and Meta's
// webhook is verified (challenge) and signed (X-Hub-Signature-256).

const TOKEN = 'graph-test-token';
const PHONE_ID = '1234567890';
const SECRET = 'app-secret-for-tests';
const VERIFY = 'verify-me-please';
const MIN = 60_000;

let graph: Awaited<ReturnType<typeof startFakeWhatsAppGraph>>;
let t: TestApp;
let phone = 9000000000;

beforeAll(async () => {
  graph = await startFakeWhatsAppGraph({ token: TOKEN, phoneNumberId: PHONE_ID });
  t = await buildTestApp({
    WHATSAPP_API_URL: graph.url,
    WHATSAPP_PHONE_NUMBER_ID: PHONE_ID,
    WHATSAPP_TOKEN: TOKEN,
    WHATSAPP_APP_SECRET: SECRET,
    WHATSAPP_VERIFY_TOKEN: VERIFY,
    ORDER_NOTIFY_DELAY_SECONDS: '0',
  });
}, 120_000);
afterAll(async () => {
  await t?.close();
  await graph?.close();
});

/** A customer with a number of their own (loginAs gives everyone the same one). */
async function customer(email: string) {
  const who = await loginAs(t, email);
  const number = String(++phone);
  await t.deps.db.update(users).set({ phoneCode: '+91', phoneNumber: number }).where(eq(users.id, who.user.id));
  // No quiet hours: the test runs at any hour (the default holds WhatsApp 22:00–08:00 IST).
  const quiet = await t.app.inject({
    method: 'PUT',
    url: '/api/v1/user/notification-preferences',
    headers: who.headers,
    payload: { quietHours: { start: '00:00', end: '00:00', timeZone: 'Asia/Kolkata' } },
  });
  expect(quiet.statusCode, quiet.body).toBe(200);
  return { ...who, wa: `91${number}` };
}
const api = (method: 'GET' | 'POST' | 'DELETE', url: string, headers: Record<string, string>, payload?: unknown) =>
  t.app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }) });
const sentTo = (wa: string) => graph.requests.filter((r) => r.body.to === wa);
const rowsOf = async (userId: string) =>
  sqlRows<{ template: string; state: string; wa_message_id: string | null; batched_into: string | null }>(
    await t.deps.db.execute(
      sql`select template, state, wa_message_id, batched_into from whatsapp_messages where user_id = ${userId} order by created_at`,
    ),
  );
const webhook = (body: unknown, signature?: string) => {
  const raw = JSON.stringify(body);
  return t.app.inject({
    method: 'POST',
    url: '/api/v1/whatsapp/webhook',
    payload: raw,
    headers: {
      'content-type': 'application/json',
      ...(signature === undefined
        ? { 'x-hub-signature-256': metaSignature(SECRET, raw) }
        : signature
          ? { 'x-hub-signature-256': signature }
          : {}),
    },
  });
};
const inbound = (from: string, text: string) => ({
  object: 'whatsapp_business_account',
  entry: [
    {
      id: 'WABA',
      changes: [
        {
          field: 'messages',
          value: {
            messaging_product: 'whatsapp',
            messages: [{ from, id: `wamid.in${Date.now()}`, timestamp: '1700000000', type: 'text', text: { body: text } }],
          },
        },
      ],
    },
  ],
});
const statusUpdate = (id: string, status: string) => ({
  object: 'whatsapp_business_account',
  entry: [
    {
      id: 'WABA',
      changes: [
        {
          field: 'messages',
          value: {
            messaging_product: 'whatsapp',
            statuses: [{ id, status, timestamp: String(Math.floor(Date.now() / 1000)), recipient_id: '91' }],
          },
        },
      ],
    },
  ],
});

describe('opt-in', () => {
  it('records the exact wording, number, person and time; off is recorded the same way', async () => {
    const c = await customer('wa-optin@example.com');
    const before = (await api('GET', '/api/v1/user/whatsapp', c.headers)).json();
    expect(before).toMatchObject({ optedIn: false, phone: `+${c.wa}`, at: null, available: true });
    expect(before.wording).toContain(`+${c.wa}`);
    expect((await api('POST', '/api/v1/user/whatsapp/opt-in', c.headers, { consent: false })).statusCode).toBe(400);
    const on = await api('POST', '/api/v1/user/whatsapp/opt-in', c.headers, { consent: true });
    expect(on.statusCode).toBe(200);
    expect(on.json()).toMatchObject({ optedIn: true, phone: `+${c.wa}`, wording: before.wording });
    const off = await api('DELETE', '/api/v1/user/whatsapp/opt-in', c.headers);
    expect(off.json()).toMatchObject({ optedIn: false });
    const records = sqlRows(
      await t.deps.db.execute(sql`select opted_in, phone, wording, source, user_id, created_at from whatsapp_consents
        where user_id = ${c.user.id} order by created_at`),
    );
    expect(records).toMatchObject([
      { opted_in: true, phone: c.wa, wording: before.wording, source: 'dashboard', user_id: c.user.id },
      { opted_in: false, phone: c.wa, source: 'dashboard', user_id: c.user.id },
    ]);
    // Append-only: a record cannot be changed.
    await expect(t.deps.db.execute(sql`update whatsapp_consents set opted_in = true where user_id = ${c.user.id}`)).rejects.toThrow();
  });

  it('answers 400 when the profile has no phone number, and 401 without a session', async () => {
    const c = await loginAs(t, 'wa-nophone@example.com');
    await t.deps.db.update(users).set({ phoneCode: null, phoneNumber: null }).where(eq(users.id, c.user.id));
    const res = await api('POST', '/api/v1/user/whatsapp/opt-in', c.headers, { consent: true });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/phone number/);
    expect((await api('GET', '/api/v1/user/whatsapp', {})).statusCode).toBe(401);
  });
});

describe('sending', () => {
  it('sends a template only with consent, at most one per order per 30 minutes', async () => {
    const c = await customer('wa-send@example.com');
    const publicId = await payInstallment(t, c, { kind: 'advance' });
    await runJobs(t.deps);
    // Paid without consent: nothing queued, nothing sent.
    expect(sentTo(c.wa)).toEqual([]);
    expect(await rowsOf(c.user.id)).toEqual([]);

    await api('POST', '/api/v1/user/whatsapp/opt-in', c.headers, { consent: true });
    await completeNextStage(t.deps, publicId, {});
    await runJobs(t.deps);
    const [first] = sentTo(c.wa);
    expect(first!.authorization).toBe(`Bearer ${TOKEN}`);
    expect(first!.body.template.name).toBe('stage_update');
    expect(first!.body.template.language.code).toBe('en');
    const params = first!.body.template.components[0]!.parameters.map((p) => p.text);
    expect(params).toHaveLength(WHATSAPP_TEMPLATES.stage_update.params.length);
    expect(params[1]).toBe(publicId);
    expect(params.at(-1)).toBe(`http://localhost:3000/status/${publicId}`);

    // Two more stages within the 30 minutes: held, then ONE message for both.
    await completeNextStage(t.deps, publicId, {});
    await completeNextStage(t.deps, publicId, {});
    await runJobs(t.deps, new Date(Date.now() + 10 * MIN));
    expect(sentTo(c.wa)).toHaveLength(1);
    await runJobs(t.deps, new Date(Date.now() + 31 * MIN));
    await runJobs(t.deps, new Date(Date.now() + 32 * MIN));
    expect(sentTo(c.wa)).toHaveLength(2);
    const states = (await rowsOf(c.user.id)).map((r) => r.state);
    expect(states.filter((s) => s === 'accepted')).toHaveLength(2);
    expect(states.filter((s) => s === 'batched')).toHaveLength(1);
  });

  it("asks the person's choices: a kind turned off for WhatsApp is not sent, quiet hours hold it; a payment due is sent", async () => {
    const c = await customer('wa-prefs@example.com');
    const publicId = await payInstallment(t, c, { kind: 'advance' });
    await api('POST', '/api/v1/user/whatsapp/opt-in', c.headers, { consent: true });
    const put = (payload: unknown) =>
      t.app.inject({
        method: 'PUT',
        url: '/api/v1/user/notification-preferences',
        headers: c.headers,
        payload: payload as Record<string, unknown>,
      });
    expect((await put({ channels: { whatsapp: { stage_completed: false } } })).statusCode).toBe(200);
    await completeNextStage(t.deps, publicId, {});
    await runJobs(t.deps);
    expect(sentTo(c.wa)).toEqual([]);

    // Quiet all day long but for one minute: the payment due waits, then goes once it is allowed.
    const orderId = (await t.deps.database.query<{ id: string }>('select id from orders where public_id = $1', [publicId]))[0]!.id;
    await t.deps.events.transaction((tx) =>
      t.deps.events.publish(tx, 'payment.due', {
        orderId,
        orderPublicId: publicId,
        customerEmail: c.user.email,
        reminderId: `r-${publicId}`,
        amountText: '₹ 1,000.00',
        at: new Date(),
      }),
    );
    expect((await put({ quietHours: { start: '00:00', end: '23:59', timeZone: 'UTC' } })).statusCode).toBe(200);
    const day = new Date(Date.now() + 40 * MIN);
    await runJobs(t.deps, new Date(Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate(), 12)));
    expect(sentTo(c.wa)).toEqual([]);
    expect((await put({ quietHours: { start: '00:00', end: '00:00', timeZone: 'UTC' } })).statusCode).toBe(200);
    await runJobs(t.deps, new Date(Date.now() + 41 * MIN));
    const sent = sentTo(c.wa);
    expect(sent.map((r) => r.body.template.name)).toEqual(['payment_due']);
    expect(sent[0]!.body.template.components[0]!.parameters.map((p) => p.text)[2]).toBe('₹ 1,000.00');
  });

  it('records the statuses Meta reports, never backwards', async () => {
    const c = await customer('wa-status@example.com');
    await api('POST', '/api/v1/user/whatsapp/opt-in', c.headers, { consent: true });
    await payInstallment(t, c, { kind: 'advance' });
    await runJobs(t.deps);
    const [row] = await rowsOf(c.user.id);
    expect(row).toMatchObject({ template: 'payment_receipt', state: 'accepted' });
    for (const s of ['sent', 'read', 'delivered']) expect((await webhook(statusUpdate(row!.wa_message_id!, s))).statusCode).toBe(200);
    expect((await rowsOf(c.user.id))[0]!.state).toBe('read');
  });

  it('STOP turns it off, recorded like an opt-out, and nothing more is sent', async () => {
    const c = await customer('wa-stop@example.com');
    await api('POST', '/api/v1/user/whatsapp/opt-in', c.headers, { consent: true });
    await payInstallment(t, c, { kind: 'advance' });
    const res = await webhook(inbound(c.wa, 'STOP'));
    expect(res.statusCode).toBe(200);
    expect((await api('GET', '/api/v1/user/whatsapp', c.headers)).json()).toMatchObject({ optedIn: false });
    const [last] = sqlRows(
      await t.deps.db.execute(sql`select opted_in, phone, source, wording from whatsapp_consents
        where user_id = ${c.user.id} order by created_at desc limit 1`),
    );
    expect(last).toMatchObject({ opted_in: false, phone: c.wa, source: 'stop', wording: 'Replied on WhatsApp: STOP' });
    // The receipt written before the STOP is not sent either.
    await runJobs(t.deps);
    expect(sentTo(c.wa)).toEqual([]);
    expect((await rowsOf(c.user.id)).map((r) => r.state)).toEqual(['skipped']);
  });

  it('a failing Graph API is retried; a refusal is recorded as failed', async () => {
    const c = await customer('wa-retry@example.com');
    await api('POST', '/api/v1/user/whatsapp/opt-in', c.headers, { consent: true });
    await payInstallment(t, c, { kind: 'advance' });
    graph.state.mode = 'fail';
    await runJobs(t.deps);
    expect((await rowsOf(c.user.id)).map((r) => r.state)).toEqual(['pending']);
    graph.state.mode = 'ok';
    await runJobs(t.deps);
    expect((await rowsOf(c.user.id)).map((r) => r.state)).toEqual(['accepted']);

    const refused = await customer('wa-refused@example.com');
    await api('POST', '/api/v1/user/whatsapp/opt-in', refused.headers, { consent: true });
    await payInstallment(t, refused, { kind: 'advance' });
    graph.state.mode = 'reject';
    await runJobs(t.deps);
    graph.state.mode = 'ok';
    await runJobs(t.deps);
    expect((await rowsOf(refused.user.id)).map((r) => r.state)).toEqual(['failed']);
  });
});

describe('webhook', () => {
  it('refuses a bad or missing signature with 401', async () => {
    expect((await webhook(inbound('911', 'STOP'), 'sha256=' + '0'.repeat(64))).statusCode).toBe(401);
    expect((await webhook(inbound('911', 'STOP'), '')).statusCode).toBe(401);
    const signedOther = metaSignature('another-secret', JSON.stringify(inbound('911', 'STOP')));
    expect((await webhook(inbound('911', 'STOP'), signedOther)).statusCode).toBe(401);
  });

  it("answers Meta's verify challenge only with the verify token", async () => {
    const ok = await t.app.inject({
      method: 'GET',
      url: `/api/v1/whatsapp/webhook?hub.mode=subscribe&hub.verify_token=${VERIFY}&hub.challenge=1158201444`,
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.body).toBe('1158201444');
    const bad = await t.app.inject({
      method: 'GET',
      url: '/api/v1/whatsapp/webhook?hub.mode=subscribe&hub.verify_token=nope&hub.challenge=1',
    });
    expect(bad.statusCode).toBe(403);
  });
});

describe('without settings', () => {
  it('queues and sends nothing, and says WhatsApp is not available', async () => {
    const bare = await buildTestApp({ ORDER_NOTIFY_DELAY_SECONDS: '0' });
    try {
      const c = await loginAs(bare, 'wa-bare@example.com');
      const on = await bare.app.inject({
        method: 'POST',
        url: '/api/v1/user/whatsapp/opt-in',
        headers: c.headers,
        payload: { consent: true },
      });
      expect(on.json()).toMatchObject({ optedIn: true, available: false });
      await payInstallment(bare, c, { kind: 'advance' });
      await runJobs(bare.deps);
      expect(sqlRows(await bare.deps.db.execute(sql`select 1 from whatsapp_messages`))).toEqual([]);
      expect(
        (
          await bare.app.inject({
            method: 'POST',
            url: '/api/v1/whatsapp/webhook',
            payload: '{}',
            headers: { 'content-type': 'application/json' },
          })
        ).statusCode,
      ).toBe(404);
    } finally {
      await bare.close();
    }
  });
});

describe('docs', () => {
  it('docs/operations.md lists every template with its parameters', () => {
    const ops = readFileSync(new URL('../../../../docs/operations.md', import.meta.url), 'utf8');
    for (const [name, t] of Object.entries(WHATSAPP_TEMPLATES)) {
      const line = ops.split('\n').find((l) => l.includes(`\`${name}\``));
      expect(line, name).toBeTruthy();
      for (const p of t.params) expect(line, `${name}: ${p}`).toContain(p);
    }
  });
});
