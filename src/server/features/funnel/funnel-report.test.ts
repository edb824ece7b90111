import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, loginAs, type TestApp } from '../../../../tests/helpers/test-app.ts';
import { payInstallment } from '../../../../tests/helpers/test-checkout.ts';
import type { CustomerDetailResponse, CustomerListResponse } from '../../../contract/admin-customers.ts';
import type { ContactListResponse, LeadListResponse } from '../../../contract/admin-leads.ts';
import type { OrderDetailResponse, OrderListResponse } from '../../../contract/admin-orders.ts';
import { funnelCountsOf, type FunnelResponse } from '../../../contract/funnel.ts';
import { createSignupTicket } from '../auth/signup-tickets.ts';
import { completeNextStage } from '../tracker/complete-next-stage.ts';
import { pageViewCounterOf } from './count-page-views.ts';
import { funnelReport, lastWeeks } from './funnel-report.ts';

// The first-touch source travels from a counted visit to the lead, the contact message,
// the sign-up and the order, and the back office reads the funnel per week and source.

let t: TestApp;
let owner: Awaited<ReturnType<typeof loginAs>>;
const EVIL = '<script>alert(1)</script>';
const FORMULA = '=HYPERLINK("http://evil")';

const browser = (name: string) => ({
  'user-agent': `Mozilla/5.0 funnel-${name}`,
  accept: 'text/html',
});
const visit = async (name: string, url: string, headers: Record<string, string> = {}) => {
  const r = await t.app.inject({
    method: 'GET',
    url,
    headers: { ...browser(name), ...headers },
  });
  expect(r.statusCode).toBe(200);
  await pageViewCounterOf(t.deps.database)!.idle();
};
const post = (name: string, url: string, payload: object, auth: Record<string, string> = {}) =>
  t.app.inject({
    method: 'POST',
    url: `/api/v1/${url}`,
    headers: { ...browser(name), ...auth },
    payload,
  });

/** The real sign-up call of a browser (after its e-mail was proven); returns the bearer headers. */
async function signUp(name: string, email: string) {
  const signupTicket = await createSignupTicket(t.deps, { email });
  const res = await post(name, 'user/addUser', {
    email,
    name,
    address: '1 Main St',
    phone_code: '+91',
    phone_number: '9876543210',
    signupTicket,
  });
  expect(res.statusCode, res.body).toBe(200);
  return { ...browser(name), authorization: `Bearer ${res.json().token}` };
}

const touch = async (table: string, where: string, value: string) =>
  (
    await t.deps.database.query<{
      s: string | null;
      m: string | null;
      c: string | null;
      r: string | null;
    }>(
      `select first_utm_source as s, first_utm_medium as m, first_utm_campaign as c, first_referrer_host as r from ${table} where ${where} = $1`,
      [value],
    )
  )[0];

let orderId = '';
beforeAll(async () => {
  const dist = mkdtempSync(join(tmpdir(), 'funnel-report-web-'));
  writeFileSync(join(dist, 'index.html'), '<!doctype html><html><body><div id="root"></div></body></html>');
  t = await buildTestApp({
    WEB_DIST_DIR: dist,
    PUBLIC_FORMS_MAX_PER_IP_MINUTE: '1000',
  });
  owner = await loginAs(t, 'funnel-boss@example.com', 'admin');

  // A: from the newsletter; a later direct load the same day does not make A "direct".
  await visit('A', '/?utm_source=Newsletter&utm_medium=email&utm_campaign=spring');
  await visit('A', '/pricing');
  // B: from a search engine; C: typed the address; D: a forged source; E: asked not to be tracked.
  await visit('B', '/', { referer: 'https://www.google.com/search?q=agency' });
  await visit('C', '/about');
  await visit('D', `/?utm_source=${encodeURIComponent(EVIL)}`);
  await visit('F', `/faqs?utm_source=${encodeURIComponent(FORMULA)}`);
  await visit('E', '/?utm_source=private', { 'sec-gpc': '1' });

  expect((await post('A', 'alert/sendEmail', { email: 'a.lead@example.com' })).statusCode).toBe(200);
  const contact = {
    name: 'Bee',
    email: 'b@example.com',
    message: 'hi',
    phone_code: '+1',
    phone_number: '5551234',
    address: '',
  };
  expect((await post('B', 'contact/addContact', contact)).statusCode).toBe(200);
  expect(
    (
      await post('E', 'contact/addContact', {
        ...contact,
        email: 'e@example.com',
      })
    ).statusCode,
  ).toBe(200);

  const a = await signUp('A', 'a.buyer@example.com');
  await signUp('C', 'c.buyer@example.com');
  // A pays the advance, the founder works through the stages, A pays the rest, the site is delivered.
  orderId = await payInstallment(t, { headers: a }, { kind: 'advance' });
  for (let stage = 2; stage <= 13; stage++) await completeNextStage(t.deps, orderId, {});
  await payInstallment(t, { headers: a }, { kind: 'remaining', orderId });
  await completeNextStage(t.deps, orderId, {
    deliveryUrl: 'https://a-buyer.example.com',
  });
}, 240_000);
afterAll(async () => t?.close());

const counts = funnelCountsOf;

describe('first-touch source', () => {
  it('is copied to the lead, the contact message, the sign-up and the order — never for an opted-out visitor', async () => {
    expect(await touch('leads', 'email', 'a.lead@example.com')).toEqual({
      s: 'Newsletter',
      m: 'email',
      c: 'spring',
      r: null,
    });
    expect(await touch('contact_messages', 'email', 'b@example.com')).toEqual({
      s: null,
      m: null,
      c: null,
      r: 'www.google.com',
    });
    expect(await touch('contact_messages', 'email', 'e@example.com')).toEqual({
      s: null,
      m: null,
      c: null,
      r: null,
    });
    expect(await touch('users', 'email', 'a.buyer@example.com')).toMatchObject({
      s: 'Newsletter',
      c: 'spring',
    });
    expect(await touch('users', 'email', 'c.buyer@example.com')).toEqual({
      s: null,
      m: null,
      c: null,
      r: null,
    });
    expect(await touch('orders', 'public_id', orderId)).toMatchObject({
      s: 'Newsletter',
      m: 'email',
    });
  });
});

describe('GET /api/v1/admin/funnel', () => {
  it('counts each stage this week, per source (case-insensitive), with the forged source as plain text', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/v1/admin/funnel?weeks=4',
      headers: owner.headers,
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as FunnelResponse;
    expect(body.weeks).toEqual(lastWeeks(new Date(), 4));
    expect(new Date(`${body.weeks[3]}T00:00:00Z`).getUTCDay()).toBe(1); // weeks start on Monday
    expect(body.total.slice(0, 3)).toEqual([counts({}), counts({}), counts({})]);
    // A, B, C, D, F visited (E opted out); one lead, two contact messages (E's is "direct").
    expect(body.total[3]).toEqual(
      counts({
        visitors: 5,
        leads: 1,
        contacts: 2,
        signups: 2,
        advancePaid: 1,
        delivered: 1,
      }),
    );
    const bySource = Object.fromEntries(body.sources.map((s) => [s.source, s.total]));
    expect(bySource).toEqual({
      newsletter: counts({
        visitors: 1,
        leads: 1,
        signups: 1,
        advancePaid: 1,
        delivered: 1,
      }),
      'www.google.com': counts({ visitors: 1, contacts: 1 }),
      '(direct)': counts({ visitors: 1, contacts: 1, signups: 1 }),
      [EVIL.toLowerCase()]: counts({ visitors: 1 }),
      [FORMULA.toLowerCase()]: counts({ visitors: 1 }),
    });
    // Biggest first: the source that brought a delivered order leads the list.
    expect(body.sources[0]!.source).toBe('newsletter');
    expect(body.sources[0]!.perWeek[3]).toEqual(bySource.newsletter);
  });

  it('puts the events in the week they happened (a week later they are last week)', async () => {
    const nextWeek = new Date(Date.now() + 7 * 86_400_000);
    const report = await funnelReport(t.deps.database, 2, nextWeek);
    expect(report.weeks).toEqual(lastWeeks(nextWeek, 2));
    expect(report.total[0]).toMatchObject({
      visitors: 5,
      signups: 2,
      advancePaid: 1,
    });
    expect(report.total[1]).toEqual(counts({}));
  });

  it('exports the funnel as CSV: one row per week and source, formulas defused, scripts as text', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/v1/admin/funnel.csv?weeks=2',
      headers: owner.headers,
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="funnel-\d{4}-\d{2}-\d{2}\.csv"$/);
    const lines = res.body.trimEnd().split('\r\n');
    const [lastWeek, thisWeek] = lastWeeks(new Date(), 2);
    expect(lines[0]).toBe('week_start,source,visitors,leads,contact_messages,signups,advance_paid,delivered');
    expect(lines).toContain(`${lastWeek},(all sources),0,0,0,0,0,0`);
    expect(lines).toContain(`${thisWeek},(all sources),5,1,2,2,1,1`);
    expect(lines).toContain(`${thisWeek},newsletter,1,1,0,1,1,1`);
    expect(lines).toContain(`${thisWeek},www.google.com,1,0,1,0,0,0`);
    expect(lines).toContain(`${thisWeek},${EVIL},1,0,0,0,0,0`);
    // A spreadsheet would run "=…": the cell starts with a quote mark instead (and is quoted for its comma-free quotes).
    expect(lines.find((l) => l.includes('hyperlink'))).toBe(`${thisWeek},"'=hyperlink(""http://evil"")",1,0,0,0,0,0`);
    expect(lines).toHaveLength(1 + 1 + 6);
  });

  // Last: the customer it signs in would count as a sign-up.
  it('refuses bad week counts with a 400 and customers with a 403', async () => {
    const bad = await t.app.inject({
      method: 'GET',
      url: '/api/v1/admin/funnel?weeks=0',
      headers: owner.headers,
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ success: false });
    const customer = await loginAs(t, 'funnel-peek@example.com');
    const denied = await t.app.inject({
      method: 'GET',
      url: '/api/v1/admin/funnel.csv',
      headers: customer.headers,
    });
    expect(denied.statusCode).toBe(403);
  });
});

// After the counts above: D's lead would be one more lead in them.
describe('the source in the back office (leads, contact messages, CSV, order, customer)', () => {
  const get = async (url: string) => {
    const res = await t.app.inject({ method: 'GET', url: `/api/v1/admin/${url}`, headers: owner.headers });
    expect(res.statusCode, res.body).toBe(200);
    return res;
  };
  const NEWSLETTER = 'Newsletter / email / spring';

  it('shows one source string per lead and contact message, the forged one as the same plain text, and exports it', async () => {
    expect((await post('D', 'alert/sendEmail', { email: 'd.lead@example.com' })).statusCode).toBe(200);
    const leads = (await get('leads?status=all')).json() as LeadListResponse;
    const lead = (email: string) => leads.items.find((l) => l.email === email);
    expect(lead('a.lead@example.com')?.source).toBe(NEWSLETTER);
    // Not escaped, not stripped: the exact text typed, which the page renders through React.
    expect(lead('d.lead@example.com')?.source).toBe(EVIL);

    const contacts = (await get('contacts?status=all')).json() as ContactListResponse;
    const contact = (email: string) => contacts.items.find((c) => c.email === email);
    expect(contact('b@example.com')?.source).toBe('via www.google.com');
    expect(contact('e@example.com')?.source).toBeNull();

    const leadsCsv = (await get('leads.csv?status=all')).body.split('\r\n');
    expect(leadsCsv[0]).toBe('created_at,kind,email,phone,page,source,handled_at');
    expect(leadsCsv.find((l) => l.includes('a.lead@example.com'))).toContain(`,${NEWSLETTER},`);
    expect(leadsCsv.find((l) => l.includes('d.lead@example.com'))).toContain(`,${EVIL},`);
    const contactsCsv = (await get('contacts.csv?status=all')).body.split('\r\n');
    expect(contactsCsv[0]).toBe('created_at,name,email,phone_code,phone_number,address,message,source,handled_at');
    expect(contactsCsv.find((l) => l.includes('b@example.com'))).toContain(',via www.google.com,');
  });

  it('shows the source on the order (detail and list) and on the customer; null when none was recorded', async () => {
    const detail = (await get(`orders/${orderId}`)).json() as OrderDetailResponse;
    expect(detail.order.source).toBe(NEWSLETTER);
    const list = (await get('orders?pageSize=50')).json() as OrderListResponse;
    expect(list.items.find((o) => o.id === orderId)?.source).toBe(NEWSLETTER);

    const customer = async (email: string) => {
      const found = (await get(`customers?q=${encodeURIComponent(email)}`)).json() as CustomerListResponse;
      return ((await get(`customers/${found.items[0]!.id}`)).json() as CustomerDetailResponse).customer;
    };
    expect((await customer('a.buyer@example.com')).source).toBe(NEWSLETTER);
    expect((await customer('c.buyer@example.com')).source).toBeNull();
  });
});
