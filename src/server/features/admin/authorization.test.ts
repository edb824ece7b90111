import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, loginAs, type TestApp } from '../../../../tests/helpers/test-app.ts';
import { registeredRoutes } from './route-walk.ts';
import { seedPaidOrder, seedRemainingPayment } from './test-seed.ts';

// Issue 7 "Done when": the authorization of EVERY admin route. The routes are read from the app
// itself, so a route added later (by anyone, in any plugin) is walked too.

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
interface AdminCall {
  /** Replaces :params; defaults to a random uuid. */
  params?: Record<string, string>;
  body?: unknown;
  query?: string;
  status: number;
}

let t: TestApp;
let admin: Awaited<ReturnType<typeof loginAs>>;
let customer: Awaited<ReturnType<typeof loginAs>>;
let couponId = '';
let orderId = '';
let cashbackId = '';
let leadId = '';
let contactId = '';
const SECRET_CODE = 'AUTHZSECRET';

// What a real admin call looks like, per route; routes missing here still get the refusals checked
// and must not answer 401/403/5xx to an admin.
const adminCalls = (): Record<string, AdminCall> => ({
  'GET /api/v1/admin/overview': { status: 200 },
  'GET /api/v1/admin/audit': { status: 200, query: 'action=coupon.create' },
  'GET /api/v1/admin/coupons': { status: 200 },
  'POST /api/v1/admin/coupons': { status: 201, body: { code: 'AUTHZ2', percent: 10 } },
  'PATCH /api/v1/admin/coupons/:id': { status: 200, params: { id: couponId }, body: { percent: 11 } },
  'POST /api/v1/admin/coupons/:id/deactivate': { status: 200, params: { id: couponId } },
  'PUT /api/v1/admin/promotion': { status: 200, body: { couponCode: 'FIRSTWEB25' } },
  'GET /api/v1/admin/customers': { status: 200 },
  'GET /api/v1/admin/customers/:id': { status: 200, params: { id: customer.user.id } },
  'POST /api/v1/admin/customers/:id/sessions/revoke': { status: 200, params: { id: customer.user.id } },
  'GET /api/v1/admin/orders': { status: 200, query: 'q=ORD' },
  'GET /api/v1/admin/orders/:id': { status: 200, params: { id: orderId } },
  'GET /api/v1/admin/orders/:id/brief': { status: 200, params: { id: orderId } },
  'GET /api/v1/admin/orders/:id/messages': { status: 200, params: { id: orderId } },
  'POST /api/v1/admin/orders/:id/messages': { status: 201, params: { id: orderId }, body: { text: 'Authorization walk' } },
  'POST /api/v1/admin/orders/:id/stages/next': { status: 200, params: { id: orderId }, body: { note: 'UI call' } },
  'POST /api/v1/admin/orders/:id/stages/undo': { status: 200, params: { id: orderId }, body: { reason: 'Too early' } },
  'PUT /api/v1/admin/orders/:id/delivery-link': { status: 200, params: { id: orderId }, body: { url: 'https://site.example.com' } },
  'PUT /api/v1/admin/orders/:id/internal-note': { status: 200, params: { id: orderId }, body: { note: 'VIP' } },
  'POST /api/v1/admin/orders/:id/refunds': { status: 404, params: { id: orderId }, body: { providerPaymentId: 'pay_not_a_duplicate', reference: 'REF-1' } },
  'GET /api/v1/admin/cashback': { status: 200 },
  'POST /api/v1/admin/cashback/:id/paid': { status: 200, params: { id: cashbackId }, body: { payoutReference: 'UPI-1' } },
  'GET /api/v1/admin/chats/summary': { status: 200 },
  'GET /api/v1/admin/leads': { status: 200, query: 'status=all' },
  'GET /api/v1/admin/leads.csv': { status: 200 },
  'POST /api/v1/admin/leads/:id/handled': { status: 200, params: { id: leadId } },
  'GET /api/v1/admin/contacts': { status: 200 },
  'GET /api/v1/admin/contacts.csv': { status: 200, query: 'status=new' },
  'POST /api/v1/admin/contacts/:id/handled': { status: 200, params: { id: contactId } },
  'GET /api/v1/admin/funnel': { status: 200, query: 'weeks=8' },
  'GET /api/v1/admin/funnel.csv': { status: 200, query: 'weeks=8' },
  'GET /api/v1/admin/orders/:orderId/files': { status: 200, params: { orderId } },
  'GET /api/v1/admin/orders/:orderId/files/:fileId': { status: 404, params: { orderId } },
  'DELETE /api/v1/admin/orders/:orderId/files/:fileId': { status: 404, params: { orderId } },
  'GET /api/v1/admin/orders/:orderId/reviews': { status: 200, params: { orderId } },
  'POST /api/v1/admin/orders/:orderId/reviews': { status: 400, params: { orderId }, body: { kind: 'ui', title: 'Round', fileIds: ['00000000-0000-4000-8000-000000000000'] } },
  'POST /api/v1/admin/orders/:orderId/reviews/:reviewId/comments': { status: 404, params: { orderId }, body: { fileId: '00000000-0000-4000-8000-000000000000', x: 0.5, y: 0.5, text: 'Answer' } },
  'POST /api/v1/admin/orders/:orderId/reviews/:reviewId/comments/:commentId/resolve': { status: 404, params: { orderId } },
});

const fill = (url: string, params: Record<string, string> = {}) =>
  url.replace(/:(\w+)/g, (_, name: string) => params[name] ?? '00000000-0000-4000-8000-000000000000');

beforeAll(async () => {
  t = await buildTestApp();
  admin = await loginAs(t, 'boss@example.com', 'admin');
  customer = await loginAs(t, 'buyer@example.com');
  const res = await t.app.inject({ method: 'POST', url: '/api/v1/admin/coupons', headers: admin.headers, payload: { code: SECRET_CODE, percent: 15 } });
  couponId = res.json().coupon.id;
  const referrer = await loginAs(t, 'referrer@example.com');
  const seeded = await seedPaidOrder(t, 'payer@example.com', { referrerUserId: referrer.user.id });
  await seedRemainingPayment(t, seeded.customer, seeded.orderId);
  orderId = seeded.orderId;
  cashbackId = (await t.deps.database.query<{ id: string }>('select id from cashback'))[0]!.id;
  await t.app.inject({ method: 'POST', url: '/api/v1/alert/sendEmail', payload: { email: 'secret.lead@example.com' } });
  await t.app.inject({ method: 'POST', url: '/api/v1/contact/addContact', payload: { name: 'Sec Ret', email: 'secret.contact@example.com', message: 'hi', phone_code: '+1', phone_number: '5551234', address: '' } });
  leadId = (await t.deps.database.query<{ id: string }>('select id from leads'))[0]!.id;
  contactId = (await t.deps.database.query<{ id: string }>('select id from contact_messages'))[0]!.id;
});
afterAll(() => t.close());

const adminRoutesOf = () => registeredRoutes(t.app).filter((r) => r.url.startsWith('/api/v1/admin'));

describe('admin route authorization', () => {
  it('finds the admin routes, and the (admin) OpenAPI document lists every one of them', async () => {
    const routes = adminRoutesOf();
    // The walk sees every route of the table (so the route-tree parser works)…
    const walked = new Set(routes.map((r) => `${r.method} ${r.url}`));
    for (const key of Object.keys(adminCalls())) expect(walked.has(key), `${key} walked`).toBe(true);
    // Admin operations are in the document served to admins only (decision 093).
    const doc = (await t.app.inject({ method: 'GET', url: '/api/openapi.json', headers: admin.headers })).json() as { paths: Record<string, Record<string, unknown>> };
    for (const r of routes) {
      const path = r.url.replace(/:(\w+)/g, '{$1}');
      expect(doc.paths[path]?.[r.method.toLowerCase()], `${r.method} ${r.url} in openapi.json`).toBeTruthy();
    }
  });

  it('refuses every admin route to a visitor (401), a bad token (401) and a customer (403), leaking nothing', async () => {
    const auditBefore = (await t.deps.database.query<{ n: number }>('select count(*)::int as n from admin_audit_log'))[0]!.n;
    const calls = adminCalls();
    for (const r of adminRoutesOf()) {
      const known = calls[`${r.method} ${r.url}`];
      const url = fill(r.url, known?.params) + (known?.query ? `?${known.query}` : '');
      // A hostile body: the guard must answer before any validation (no 400 that describes the input).
      const payload = r.method === 'GET' ? undefined : { code: '<script>x</script>', percent: -5, junk: 'x'.repeat(5000) };
      const cases = [
        { who: 'visitor', headers: {}, status: 401, message: 'Please sign in.' },
        { who: 'bad token', headers: { authorization: 'Bearer not-a-real-token' }, status: 401, message: 'Please sign in.' },
        { who: 'customer', headers: customer.headers, status: 403, message: 'Admins only.' },
      ];
      for (const c of cases) {
        const res = await t.app.inject({ method: r.method as Method, url, headers: c.headers, payload });
        const label = `${c.who} ${r.method} ${r.url}`;
        expect(res.statusCode, label).toBe(c.status);
        const body = res.json();
        expect(body, label).toEqual({ success: false, code: c.status === 401 ? 'UNAUTHORIZED' : 'FORBIDDEN', message: c.message });
        expect(res.body, label).not.toContain(SECRET_CODE);
        expect(res.body, label).not.toContain('buyer@example.com');
        expect(res.body, label).not.toContain(orderId);
        expect(res.body, label).not.toContain('secret.');
      }
    }
    const auditAfter = (await t.deps.database.query<{ n: number }>('select count(*)::int as n from admin_audit_log'))[0]!.n;
    expect(auditAfter).toBe(auditBefore);
  });

  it('lets an admin use every admin route', async () => {
    const calls = adminCalls();
    // Reads first, then mutations in table order (e.g. the edit before the deactivation).
    const order = Object.keys(calls);
    const rank = (r: { method: string; url: string }) => (r.method === 'GET' ? -1 : order.indexOf(`${r.method} ${r.url}`) + (order.includes(`${r.method} ${r.url}`) ? 0 : 1000));
    const routes = adminRoutesOf().sort((a, b) => rank(a) - rank(b));
    for (const r of routes) {
      const known = calls[`${r.method} ${r.url}`];
      const url = fill(r.url, known?.params) + (known?.query ? `?${known.query}` : '');
      const res = await t.app.inject({ method: r.method as Method, url, headers: admin.headers, payload: known?.body as object | undefined });
      const label = `admin ${r.method} ${r.url}: ${res.body.slice(0, 200)}`;
      if (known) expect(res.statusCode, label).toBe(known.status);
      else expect([401, 403].includes(res.statusCode) || res.statusCode >= 500, label).toBe(false);
    }
  });
});
