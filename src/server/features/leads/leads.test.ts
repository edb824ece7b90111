import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../../tests/helpers/test-app.ts';
import { startFakeSmtp, type FakeSmtp } from '../../../../tests/fakes/smtp.ts';

let smtp: FakeSmtp;
let t: TestApp;
let ipCounter = 0;
// Each test speaks from its own address so that the per-IP limit is tested only where intended.
const nextIp = () => `198.51.100.${++ipCounter}`;

beforeAll(async () => {
  smtp = await startFakeSmtp();
  t = await buildTestApp({ SMTP_URL: smtp.smtpUrl, ADMIN_EMAILS: 'founder@example.com,partner@example.com', TRUST_PROXY: '127.0.0.1' });
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});
beforeEach(() => {
  smtp.messages.length = 0;
});

// A drain already running when a mail is queued does not pick it up (the worker's poll would);
// draining a few times sends everything queued so far.
const flushMail = async () => {
  for (let i = 0; i < 3; i++) await t.deps.mailer.drain();
};
const post = (url: string, payload: unknown, ip = nextIp()) =>
  t.app.inject({ method: 'POST', url: `/api/v1/${url}`, payload: payload as object, headers: { 'x-forwarded-for': ip } });
const leadRows = () =>
  t.deps.database.query<{ kind: string; email: string | null; phone: string | null; page: string | null; handled_at: Date | null }>(
    'select * from leads order by created_at',
  );

describe('POST /api/v1/alert/sendEmail', () => {
  it('stores a lead by e-mail and notifies every admin through SMTP', async () => {
    const res = await post('alert/sendEmail', { email: '  Jane.Doe+web@Example.com ', page: '/pricing' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, message: expect.any(String) });
    const rows = await leadRows();
    expect(rows.at(-1)).toMatchObject({
      kind: 'email',
      email: 'jane.doe+web@example.com',
      phone: null,
      page: '/pricing',
      handled_at: null,
    });
    await flushMail();
    const mail = await smtp.waitFor('founder@example.com');
    expect(mail.subject).toContain('jane.doe+web@example.com');
    expect(mail.text).toContain('Page: /pricing');
    await smtp.waitFor('partner@example.com');
  });

  it.each([
    ['missing', {}],
    ['not an e-mail', { email: 'jane' }],
    ['no top-level domain', { email: 'jane@example' }],
    ['one-letter TLD', { email: 'jane@example.c' }],
    ['a space', { email: 'ja ne@example.com' }],
    ['HTML', { email: '<script>alert(1)</script>@x.io' }],
    ['too long', { email: `${'a'.repeat(95)}@x.io.in` }],
    ['a number', { email: 42 }],
    ['a bad page', { email: 'ok@example.com', page: 'javascript:alert(1)' }],
  ])('refuses %s with 400 and stores nothing', async (_name, body) => {
    const before = (await leadRows()).length;
    const res = await post('alert/sendEmail', body);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ success: false, code: 'BAD_REQUEST' });
    expect(await leadRows()).toHaveLength(before);
  });

  it('refuses a non-JSON body with 4xx', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/alert/sendEmail',
      payload: 'email=x',
      headers: { 'content-type': 'text/plain' },
    });
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expect(res.statusCode).toBeLessThan(500);
  });
});

describe('POST /api/v1/alert/sendMessage', () => {
  it.each(['+1 5551234', '+1-242 55512345', '+9112345678901', '+44 12345678901'])('stores the lead phone %s', async (phone) => {
    const res = await post('alert/sendMessage', { phone });
    expect(res.statusCode).toBe(200);
    expect((await leadRows()).at(-1)).toMatchObject({ kind: 'phone', phone, email: null });
  });

  it.each([
    ['4 digits', '+1 1234'],
    ['12 digits', '+1 123456789012'],
    ['letters', '+1 55512ab'],
    ['HTML', '<b>+1 5551234</b>'],
    ['empty', ''],
  ])('refuses %s with the spec phone message', async (_name, phone) => {
    const res = await post('alert/sendMessage', { phone });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain('Please enter a valid phone number with 5 to 11 digits.');
  });
});

describe('lead flood from one IP', () => {
  it('answers 429 after 5 a minute and keeps every lead before the limit', async () => {
    const ip = '203.0.113.50';
    const before = (await leadRows()).length;
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) statuses.push((await post('alert/sendEmail', { email: `flood${i}@example.com` }, ip)).statusCode);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429, 429]);
    const res = await post('alert/sendEmail', { email: 'late@example.com' }, ip);
    expect(res.json()).toMatchObject({ success: false, code: 'RATE_LIMITED' });
    const rows = await leadRows();
    expect(rows.length - before).toBe(5);
    expect(rows.slice(-5).map((r) => r.email)).toEqual([0, 1, 2, 3, 4].map((i) => `flood${i}@example.com`));
    // Another visitor is not affected.
    expect((await post('alert/sendEmail', { email: 'other@example.com' })).statusCode).toBe(200);
  });
});
