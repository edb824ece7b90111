import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, loginAs, type TestApp } from '../../../../tests/helpers/test-app.ts';
import { csvCell } from '../../lib/csv.ts';

let t: TestApp;
let owner: Awaited<ReturnType<typeof loginAs>>;
let ip = 0;

// Leads and contacts arrive through the public site's own endpoints.
const submit = (url: string, payload: object) =>
  t.app.inject({ method: 'POST', url: `/api/v1/${url}`, payload, headers: { 'x-forwarded-for': `203.0.113.${++ip}` } });
const call = (method: 'GET' | 'POST', url: string) => t.app.inject({ method, url: `/api/v1/admin/${url}`, headers: owner.headers });

beforeAll(async () => {
  t = await buildTestApp({ TRUST_PROXY: '127.0.0.1' });
  owner = await loginAs(t, 'founder@example.com', 'admin');
  expect((await submit('alert/sendEmail', { email: 'lead.one@example.com' })).statusCode).toBe(200);
  expect((await submit('alert/sendMessage', { phone: '+91 9876543210' })).statusCode).toBe(200);
  const contact = await submit('contact/addContact', {
    name: '=HYPERLINK("http://evil.example","click") <b>Bold</b>',
    email: 'writer@example.com',
    message: 'Line one, "quoted"\nline two <script>alert(1)</script>',
    phone_code: '+1',
    phone_number: '5551234',
    address: '',
  });
  expect(contact.statusCode).toBe(200);
});
afterAll(() => t.close());

describe('leads and contact messages', () => {
  it('lists new leads, marks one handled (once, audited) and filters by status', async () => {
    const fresh = (await call('GET', 'leads')).json();
    expect(fresh.pageInfo.total).toBe(2);
    const emailLead = fresh.items.find((l: { kind: string }) => l.kind === 'email');
    expect(emailLead).toMatchObject({ email: 'lead.one@example.com', handledAt: null });

    const done = await call('POST', `leads/${emailLead.id}/handled`);
    expect(done.json()).toMatchObject({ id: emailLead.id, handledAt: expect.any(String) });
    const again = await call('POST', `leads/${emailLead.id}/handled`);
    expect(again.json().handledAt).toBe(done.json().handledAt);
    const audit = (await call('GET', `audit?action=lead.handle&entityId=${emailLead.id}`)).json();
    expect(audit.items).toHaveLength(1);

    expect((await call('GET', 'leads?status=new')).json().items.map((l: { kind: string }) => l.kind)).toEqual(['phone']);
    expect((await call('GET', 'leads?status=handled')).json().items.map((l: { id: string }) => l.id)).toEqual([emailLead.id]);
    expect((await call('GET', 'leads?status=all')).json().pageInfo.total).toBe(2);
    expect((await call('GET', 'leads?status=spam')).statusCode).toBe(400);
    expect((await call('POST', 'leads/7d1f3a0e-0000-4000-8000-000000000000/handled')).statusCode).toBe(404);
    expect((await call('POST', 'leads/not-a-uuid/handled')).statusCode).toBe(400);
  });

  it('lists contact messages with HTML kept as text, and marks them handled', async () => {
    const list = (await call('GET', 'contacts')).json();
    expect(list.items[0]).toMatchObject({ email: 'writer@example.com', message: expect.stringContaining('<script>alert(1)</script>') });
    const res = await call('POST', `contacts/${list.items[0].id}/handled`);
    expect(res.statusCode).toBe(200);
    expect((await call('GET', 'contacts')).json().items).toHaveLength(0);
    const audit = (await call('GET', 'audit?action=contact.handle')).json();
    expect(audit.items[0]).toMatchObject({ entity: 'contact', entityId: list.items[0].id, after: { handledAt: expect.any(String) } });
  });

  it('exports CSV as an attachment, quoting commas, quotes and line breaks, and defusing formulas', async () => {
    const res = await call('GET', 'contacts.csv');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="contact-messages-\d{4}-\d{2}-\d{2}\.csv"$/);
    const lines = res.body.split('\r\n');
    expect(lines[0]).toBe('created_at,name,email,phone_code,phone_number,address,message,source,handled_at');
    expect(res.body).toContain(`"'=HYPERLINK(""http://evil.example"",""click"") <b>Bold</b>"`);
    expect(res.body).toContain('"Line one, ""quoted""\nline two <script>alert(1)</script>"');
    expect(res.body).toContain(",'+1,");
    const leadsCsv = await call('GET', 'leads.csv?status=new');
    expect(leadsCsv.body.trim().split('\r\n')).toHaveLength(2);
    expect(leadsCsv.body).toContain("'+91 9876543210");
  });

  it.each([
    ['=1+1', "'=1+1"],
    ['@SUM(A1)', "'@SUM(A1)"],
    ['-2', "'-2"],
    ['plain', 'plain'],
    ['a,b', '"a,b"'],
    [' padded ', '" padded "'],
    [null, ''],
  ])('csvCell(%j) is %s', (input, out) => {
    expect(csvCell(input)).toBe(out);
  });

  it('counts leads and contacts per day and the unhandled ones on the overview', async () => {
    const o = (await call('GET', 'overview')).json();
    expect(o.leadsPerDay[29]).toBe(2);
    expect(o.contactsPerDay[29]).toBe(1);
    expect(o.newLeads).toBe(1);
    expect(o.newContacts).toBe(0);
  });
});
