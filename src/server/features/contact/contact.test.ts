import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, loginAs, type TestApp } from '../../../../tests/helpers/test-app.ts';
import { startFakeSmtp, type FakeSmtp } from '../../../../tests/fakes/smtp.ts';

let smtp: FakeSmtp;
let t: TestApp;
let ipCounter = 0;
const nextIp = () => `198.51.100.${++ipCounter}`;

beforeAll(async () => {
  smtp = await startFakeSmtp();
  // No ADMIN_EMAILS: notifications go to the brand's own address.
  t = await buildTestApp({ SMTP_URL: smtp.smtpUrl, BRAND_EMAIL: 'hello@agency.example', TRUST_PROXY: '127.0.0.1' });
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});
beforeEach(() => {
  smtp.messages.length = 0;
});

const valid = {
  name: 'Ada Lovelace',
  email: 'Ada@Example.com',
  message: 'I need a shop.\nThanks!',
  phone_code: '+44',
  phone_number: '7700900123',
  address: '1 Engine Street',
};
// A drain already running when a mail is queued does not pick it up (the worker's poll would);
// draining a few times sends everything queued so far.
const flushMail = async () => {
  for (let i = 0; i < 3; i++) await t.deps.mailer.drain();
};
const post = (payload: unknown, headers: Record<string, string> = {}, ip = nextIp()) =>
  t.app.inject({
    method: 'POST',
    url: '/api/v1/contact/addContact',
    payload: payload as object,
    headers: { 'x-forwarded-for': ip, ...headers },
  });
const rows = () =>
  t.deps.database.query<{
    name: string;
    email: string;
    message: string;
    phone_code: string;
    phone_number: string;
    address: string;
    user_id: string | null;
    handled_at: Date | null;
  }>('select * from contact_messages order by created_at');

describe('POST /api/v1/contact/addContact', () => {
  it('stores the message and e-mails the brand address', async () => {
    const res = await post(valid);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ success: true, ok: true });
    expect((await rows()).at(-1)).toMatchObject({ ...valid, email: 'ada@example.com', user_id: null, handled_at: null });
    await flushMail();
    const mail = await smtp.waitFor('hello@agency.example', (m) => m.subject === 'Contact form: Ada Lovelace');
    expect(mail.text).toContain('Phone: +44 7700900123');
    expect(mail.text).toContain('I need a shop.');
  });

  it('applies the defaults: phone code +1, empty message and address', async () => {
    const res = await post({ name: 'Bo', email: 'bo@example.com', phone_number: '12345' });
    expect(res.statusCode).toBe(200);
    expect((await rows()).at(-1)).toMatchObject({ phone_code: '+1', message: '', address: '' });
  });

  it('normalises a phone code without + and with an area suffix', async () => {
    await post({ ...valid, phone_code: '1-242' });
    expect((await rows()).at(-1)?.phone_code).toBe('+1-242');
  });

  it('links the message to the signed-in customer', async () => {
    const { user, headers } = await loginAs(t, 'customer@example.com');
    await post(valid, headers);
    expect((await rows()).at(-1)?.user_id).toBe(user.id);
  });

  it('stores HTML and script as inert text and escapes it in the e-mail', async () => {
    const hostile = { ...valid, name: '<script>alert(1)</script>', message: '<img src=x onerror=alert(2)>', address: '"><b>x</b>' };
    expect((await post(hostile)).statusCode).toBe(200);
    expect((await rows()).at(-1)).toMatchObject({ name: hostile.name, message: hostile.message, address: hostile.address });
    await flushMail();
    const mail = await smtp.waitFor('hello@agency.example', (m) => m.subject.includes('alert(1)'));
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).not.toContain('<img src=x');
    expect(mail.html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(mail.text).toContain('<script>alert(1)</script>');
  });

  it.each([
    ['a 101-character name', { name: 'a'.repeat(101) }],
    ['a blank name', { name: '   ' }],
    ['a wrong e-mail', { email: 'ada@' }],
    ['a 101-character e-mail', { email: `${'a'.repeat(92)}@mail.com` }],
    ['a 4-digit phone', { phone_number: '1234' }],
    ['a 12-digit phone', { phone_number: '123456789012' }],
    ['a phone with letters', { phone_number: '12345abc' }],
    ['a bad phone code', { phone_code: '+12345' }],
    ['a huge message', { message: 'x'.repeat(5001) }],
    ['a 501-character address', { address: 'x'.repeat(501) }],
    ['a missing phone', { phone_number: undefined }],
    ['an object for a name', { name: { $gt: '' } }],
  ])('refuses %s with 400 and stores nothing', async (_n, patch) => {
    const before = (await rows()).length;
    const res = await post({ ...valid, ...patch });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ success: false, code: 'BAD_REQUEST' });
    expect(await rows()).toHaveLength(before);
  });

  it('accepts a 100-character name', async () => {
    expect((await post({ ...valid, name: 'n'.repeat(100) })).statusCode).toBe(200);
  });

  it('gives the spec phone message for a bad phone', async () => {
    const res = await post({ ...valid, phone_number: '1234' });
    expect(res.json().message).toContain('Please enter a valid phone number with 5 to 11 digits.');
  });

  it('rate-limits a flood from one IP at 5 a minute, storing the first 5', async () => {
    const ip = '203.0.113.60';
    const before = (await rows()).length;
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) statuses.push((await post({ ...valid, name: `Flood ${i}` }, {}, ip)).statusCode);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429]);
    const after = await rows();
    expect(after.slice(before).map((r) => r.name)).toEqual(['Flood 0', 'Flood 1', 'Flood 2', 'Flood 3', 'Flood 4']);
  });

  it('refuses a body over the size limit with 413', async () => {
    const res = await post({ ...valid, message: 'x'.repeat(200 * 1024) });
    expect(res.statusCode).toBe(413);
  });
});
