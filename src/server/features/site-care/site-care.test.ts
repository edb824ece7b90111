import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, loginAs, type TestApp } from '../../../../tests/helpers/test-app.ts';
import { seedDeliveredOrder } from '../../../../tests/fixtures/delivered-orders.ts';
import { startFakeHttpsSite, startFakeRdap, startFakeSite, type FakeRdap, type FakeSite } from '../../../../tests/fakes/sites.ts';
import { runJobs } from '../jobs/run-jobs.ts';
import { getOverview } from '../admin/overview.ts';
import type { BuiltApp } from '../../app.ts';
import type { Resolve } from './address-policy.ts';
import { checkUrl } from './probe.ts';
import { runDueDaily } from './checks.ts';
import { CERT_WARNING_TEMPLATE, DOMAIN_WARNING_TEMPLATE, SITE_DOWN_TEMPLATE, SITE_UP_TEMPLATE } from './site-mails.ts';
import { CARE_REPORT_TEMPLATE } from './care-reports.ts';
import { careReportAttachment } from './care-report-attachment.ts';
import { monthOf, previousMonth, zonedTime } from '../../../domain/site-care.ts';
import { loadConfig } from '../../config.ts';

// Site care on the real app against local servers (PGlite, or PostgreSQL with TEST_DB=postgres):
// a site that stops answering and comes back, the mails once per change of state, a certificate
// near its end, a domain's expiry from a fake RDAP server, the address policy (a private address
// and a redirect to one are refused), the contract's answers and the care reports.

type Who = Awaited<ReturnType<typeof loginAs>>;
const OWNER = 'care.founder@example.com';
const MIN = 60_000;
const INTERVAL = 300;

/** Host names of the tests, all on this machine (a DNS adapter: the checks resolve through it). */
const localNames: Resolve = async (hostname) => {
  if (hostname.endsWith('.example.test') || hostname === '127.0.0.1') return [{ address: '127.0.0.1', family: 4 }];
  throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
};

let t: TestApp;
let site: FakeSite;
let rdap: FakeRdap;
let owner: Who;
let alice: Who;
let mallory: Who;
let aliceOrder: string;

const get = (app: BuiltApp, who: Who, url: string) => app.app.inject({ method: 'GET', url, headers: who.headers });
const send = (app: BuiltApp, who: Who, method: 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
  app.app.inject({ method, url, headers: who.headers, payload });
const mails = (app: BuiltApp, template: string, to?: string) =>
  app.deps.database.query<{ to_address: string; subject: string; text_body: string; renders: { kind: string; id: string }[] | null }>(
    `select to_address, subject, text_body, renders from mail_outbox where template = $1 and ($2::text is null or to_address = $2) order by created_at`,
    [template, to ?? null],
  );
const siteRow = async (app: BuiltApp, orderId: string) =>
  (
    await app.deps.database.query<{ id: string; state: string; next_check_at: Date }>(
      `select s.id, s.state, s.next_check_at from watched_sites s join orders o on o.id = s.order_id where o.public_id = $1 and s.is_delivery_link`,
      [orderId],
    )
  )[0]!;

beforeAll(async () => {
  site = await startFakeSite();
  rdap = await startFakeRdap();
  rdap.domains.set('example.test', new Date(Date.now() + 20.5 * 86_400_000));
  t = await buildTestApp({
    SITE_CHECKS: 'on',
    SITE_CHECK_ALLOW_PRIVATE: '1',
    RDAP_BASE_URL: rdap.url,
    ADMIN_EMAILS: OWNER,
    SITE_CHECK_INTERVAL_SECONDS: String(INTERVAL),
  });
  t.deps.siteCareResolve = localNames;
  owner = await loginAs(t, OWNER, 'admin');
  mallory = await loginAs(t, 'care.mallory@example.com');
  const seeded = await seedDeliveredOrder(t, 'care.alice@example.com');
  alice = seeded.customer as Who;
  aliceOrder = seeded.orderId;
  // The delivered link points at the local site (the delivery link's row follows orders.delivery_url).
  await t.deps.database.query(`update orders set delivery_url = $2 where public_id = $1`, [
    aliceOrder,
    `http://shop.example.test:${site.port}/`,
  ]);
}, 60_000);

afterAll(async () => {
  await t?.close();
  await site?.close();
  await rdap?.close();
});

describe('checks and incidents', () => {
  it(
    'watches the delivery link from delivery; a site that stops answering opens one incident after 2 ' +
      'checks, mails once, and closes it when it is back',
    async () => {
      const row = await siteRow(t, aliceOrder);
      expect(row.state).toBe('unknown');
      // The first check is somewhere in the next interval (start times are spread).
      expect(new Date(row.next_check_at).getTime() - Date.now()).toBeLessThanOrEqual(INTERVAL * 1000);
      let now = new Date(Date.now() + INTERVAL * 1000 + 1000);
      const step = async () => {
        const out = await runJobs(t.deps, now);
        now = new Date(now.getTime() + INTERVAL * 1000);
        return out.siteCare!;
      };

      expect((await step()).checks).toBe(1);
      expect((await siteRow(t, aliceOrder)).state).toBe('up');
      // The same instant again: nothing is due twice in one interval.
      expect((await runJobs(t.deps, new Date(now.getTime() - INTERVAL * 1000))).siteCare!.checks).toBe(0);

      site.state.mode = 'error';
      await step(); // 1st failure: still up
      expect((await siteRow(t, aliceOrder)).state).toBe('up');
      expect(await mails(t, SITE_DOWN_TEMPLATE)).toHaveLength(0);
      const downAt = now;
      await step(); // 2nd failure: down
      expect((await siteRow(t, aliceOrder)).state).toBe('down');
      const down = await mails(t, SITE_DOWN_TEMPLATE);
      expect(down.map((m) => m.to_address).sort()).toEqual(['care.alice@example.com', OWNER]);
      expect(down[0]!.text_body).toContain('error (5xx)');
      expect((await getOverview(t.deps.database, now)).sitesDown).toBe(1);
      await step(); // 3rd failure: still the one incident, no second mail
      expect(await mails(t, SITE_DOWN_TEMPLATE)).toHaveLength(2);

      site.state.mode = 'ok';
      await step(); // back: the incident closes at once…
      expect((await siteRow(t, aliceOrder)).state).toBe('up');
      const [incident] = await t.deps.database.query<{ n: number; open: number }>(
        `select count(*)::int as n, count(*) filter (where ended_at is null)::int as open from site_incidents`,
      );
      expect(incident).toEqual({ n: 1, open: 0 });
      // …and its mail waits for the 30 quiet minutes after the "down" mail (a flapping site mails once per 30 min).
      expect(await mails(t, SITE_UP_TEMPLATE)).toHaveLength(0);
      while (now.getTime() - downAt.getTime() < 30 * MIN) await step();
      await step();
      const up = await mails(t, SITE_UP_TEMPLATE);
      expect(up.map((m) => m.to_address).sort()).toEqual(['care.alice@example.com', OWNER]);
      // The agency's subject says how long; both say it in the text.
      expect(up.find((m) => m.to_address === OWNER)!.subject).toMatch(/after \d+ min/);
      for (const m of up) expect(m.text_body).toMatch(/\d+ min/);
      await step();
      expect(await mails(t, SITE_UP_TEMPLATE)).toHaveLength(2);

      // The contract: the customer reads the health; another customer gets the same 404 as an unknown id.
      const res = await get(t, alice, `/api/v1/orders/${aliceOrder}/site-health`);
      expect(res.statusCode, res.body).toBe(200);
      const [health] = res.json().sites;
      expect(health).toMatchObject({ status: 'up', url: `http://shop.example.test:${site.port}/`, isDeliveryLink: true });
      expect(health.uptime30d).toBeGreaterThan(0);
      expect(health.uptime30d).toBeLessThan(100);
      expect(Number.isInteger(health.uptime30d * 100)).toBe(true);
      expect(health.responseP50Ms).toBeGreaterThanOrEqual(0);
      expect(health.incidents).toEqual([{ startedAt: expect.any(String), endedAt: expect.any(String), cause: 'status' }]);
      expect(health.days).toHaveLength(90);
      expect((await get(t, mallory, `/api/v1/orders/${aliceOrder}/site-health`)).statusCode).toBe(404);
      expect((await get(t, owner, `/api/v1/admin/orders/${aliceOrder}/site-health`)).json().sites).toHaveLength(1);
    },
  );

  it('sends no incident mail to a customer who switched them off; the agency still hears', async () => {
    const off = await send(t, alice, 'PUT', `/api/v1/orders/${aliceOrder}/site-health/mails`, { customerMails: false });
    expect(off.json().settings).toEqual({ customerMails: false, keepWatching: false });
    const before = (await mails(t, SITE_DOWN_TEMPLATE)).length;
    // Hours later (the quiet time is long over): a 503, then no answer at all (the 10 s timeout).
    let now = new Date(Date.now() + 10 * 3600_000);
    for (const mode of ['error', 'hang'] as const) {
      site.state.mode = mode;
      await t.deps.database.query(`update watched_sites set next_check_at = $1`, [now.toISOString()]);
      await runJobs(t.deps, now);
      now = new Date(now.getTime() + INTERVAL * 1000);
    }
    site.state.mode = 'ok';
    const after = (await mails(t, SITE_DOWN_TEMPLATE)).slice(before);
    expect(after.map((m) => m.to_address)).toEqual([OWNER]);
    expect(after[0]!.text_body).toContain('no complete answer within 10 seconds');
    await send(t, alice, 'PUT', `/api/v1/orders/${aliceOrder}/site-health/mails`, { customerMails: true });
  }, 30_000);
});

describe('the sites of an order', () => {
  it('adds up to 5 URLs with the delivery link (409 above), refuses what is not http(s) (400), and removes one (204)', async () => {
    expect((await send(t, owner, 'POST', `/api/v1/admin/orders/${aliceOrder}/sites`, { url: 'ftp://shop.example.test/' })).statusCode).toBe(
      400,
    );
    expect((await send(t, owner, 'POST', `/api/v1/admin/orders/${aliceOrder}/sites`, { url: 'not a url' })).statusCode).toBe(400);
    expect((await send(t, owner, 'POST', `/api/v1/admin/orders/${aliceOrder}/sites`, { url: 'http://nowhere.invalid/' })).statusCode).toBe(
      400,
    );
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await send(t, owner, 'POST', `/api/v1/admin/orders/${aliceOrder}/sites`, {
        url: `http://shop.example.test:${site.port}/page-${i}`,
        expectText: 'Welcome',
      });
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json().site).toMatchObject({
        url: `http://shop.example.test:${site.port}/page-${i}`,
        status: 'unknown',
        expectText: 'Welcome',
        watching: true,
      });
      ids.push(res.json().site.id);
    }
    const sixth = await send(t, owner, 'POST', `/api/v1/admin/orders/${aliceOrder}/sites`, {
      url: `http://shop.example.test:${site.port}/six`,
    });
    expect(sixth.statusCode).toBe(409);
    expect((await send(t, mallory, 'POST', `/api/v1/admin/orders/${aliceOrder}/sites`, { url: site.url })).statusCode).toBe(403);
    for (const id of ids) expect((await send(t, owner, 'DELETE', `/api/v1/admin/orders/${aliceOrder}/sites/${id}`)).statusCode).toBe(204);
    expect((await send(t, owner, 'DELETE', `/api/v1/admin/orders/${aliceOrder}/sites/${ids[0]}`)).statusCode).toBe(404);
    const [audit] = await t.deps.database.query<{ n: number }>(
      `select count(*)::int as n from admin_audit_log where action in ('order.site.add', 'order.site.remove')`,
    );
    expect(audit!.n).toBe(8);
  });

  it('fails a check whose page lacks the expected text', async () => {
    const out = await checkUrl(`http://shop.example.test:${site.port}/`, 'Sold out', {
      allowPrivate: true,
      resolve: localNames,
      userAgent: 'test',
    });
    expect(out).toMatchObject({ ok: false, status: 200, cause: 'text' });
    expect(
      (await checkUrl(`http://shop.example.test:${site.port}/`, 'Welcome', { allowPrivate: true, resolve: localNames, userAgent: 'test' }))
        .ok,
    ).toBe(true);
  });
});

describe('certificate and domain', () => {
  it('reads a self-signed certificate expiring in 5 days and warns once; the HTTPS check itself fails on it', async () => {
    const secure = await startFakeHttpsSite({ host: 'secure.example.test', validDays: 5 });
    try {
      const res = await send(t, owner, 'POST', `/api/v1/admin/orders/${aliceOrder}/sites`, { url: secure.url });
      expect(res.statusCode, res.body).toBe(201);
      const id = res.json().site.id as string;
      const now = new Date(Date.now() + MIN);
      await runDueDaily(t.deps, now);
      const warned = await mails(t, CERT_WARNING_TEMPLATE);
      expect(warned.map((m) => m.to_address)).toEqual([OWNER]);
      expect(warned[0]!.subject).toMatch(/Certificate expires in 4 days: https:\/\/secure\.example\.test/);
      // The next day: still past the 7-day mark, not yet at 1 day — no second warning.
      await runDueDaily(t.deps, new Date(now.getTime() + 86_400_000 + MIN));
      expect(await mails(t, CERT_WARNING_TEMPLATE)).toHaveLength(1);
      const health = (await get(t, owner, `/api/v1/admin/orders/${aliceOrder}/site-health`))
        .json()
        .sites.find((s: { id: string }) => s.id === id);
      // The page counts from the real clock: 4 whole days left.
      expect(health.certificate.daysLeft).toBe(4);
      const check = await checkUrl(secure.url, null, { allowPrivate: true, resolve: localNames, userAgent: 'test' });
      expect(check).toMatchObject({ ok: false, cause: 'certificate' });
      expect((await send(t, owner, 'DELETE', `/api/v1/admin/orders/${aliceOrder}/sites/${id}`)).statusCode).toBe(204);
    } finally {
      await secure.close();
    }
  });

  it("reads the domain's expiry from RDAP (the host's parent domain) and warns once at 30 days", async () => {
    const health = (await get(t, alice, `/api/v1/orders/${aliceOrder}/site-health`)).json().sites[0];
    // The daily look ran with the first check: shop.example.test is a 404, example.test has the date.
    expect(health.domain.daysLeft).toBe(20);
    expect(rdap.requests).toContain('/domain/shop.example.test');
    const warned = await mails(t, DOMAIN_WARNING_TEMPLATE);
    expect(warned.map((m) => m.to_address)).toEqual([OWNER]);
    expect(warned[0]!.subject).toBe(`Domain expires in 20 days: example.test (${aliceOrder})`);
  });
});

describe('the address policy', () => {
  let strict: TestApp;
  beforeAll(async () => {
    strict = await buildTestApp({ SITE_CHECKS: 'on', ADMIN_EMAILS: OWNER });
    strict.deps.siteCareResolve = async (hostname) => {
      if (hostname === 'intranet.example.test') return [{ address: '10.0.0.7', family: 4 }];
      if (hostname === 'mixed.example.test')
        return [
          { address: '93.184.215.14', family: 4 },
          { address: 'fd00:ec2::254', family: 6 },
        ];
      return localNames(hostname);
    };
  }, 30_000);
  afterAll(async () => strict?.close());

  it('refuses loopback, private, link-local and metadata addresses, after DNS too', async () => {
    const boss = await loginAs(strict, OWNER, 'admin');
    const { orderId } = await seedDeliveredOrder(strict, 'strict.customer@example.com');
    for (const url of [
      site.url,
      'http://169.254.169.254/latest/meta-data/',
      'http://[::1]:8080/',
      'http://intranet.example.test/',
      'http://mixed.example.test/',
      `http://shop.example.test:${site.port}/`,
    ]) {
      const res = await send(strict, boss, 'POST', `/api/v1/admin/orders/${orderId}/sites`, { url });
      expect(res.statusCode, url).toBe(400);
      expect(res.json().message).toBe('This URL does not lead to a public address.');
    }
    // A site whose name points inside later is refused at the check, with the cause "address".
    const out = await checkUrl('http://intranet.example.test/', null, {
      allowPrivate: false,
      resolve: strict.deps.siteCareResolve!,
      userAgent: 'test',
    });
    expect(out).toMatchObject({ ok: false, status: 0, cause: 'address' });
  });

  it('checks every redirect again: a redirect to a private address is refused', async () => {
    // This machine has no public address to serve from: in this test 127.0.0.1 stands for a public
    // one and the rest of the policy (isPublicAddress) applies to the redirects' targets.
    const opts = { allowPrivate: false, resolve: localNames, userAgent: 'test', isPublic: (a: string) => a === '127.0.0.1' };
    site.state.mode = 'redirect';
    try {
      for (const target of [
        'http://169.254.169.254/latest/meta-data/',
        'http://10.1.2.3/',
        'http://[fe80::1]/',
        `http://127.0.0.2:${site.port}/`,
      ]) {
        site.state.redirectTo = target;
        expect(await checkUrl(site.url, null, opts), target).toMatchObject({ ok: false, cause: 'address' });
      }
      site.state.redirectTo = 'ftp://files.example.test/';
      expect(await checkUrl(site.url, null, opts)).toMatchObject({ ok: false, cause: 'address' });
      // A redirect to an allowed address is followed (at most 5 times).
      site.state.redirectTo = `http://shop.example.test:${site.port}/again`;
      const loop = await checkUrl(site.url, null, opts);
      expect(loop).toMatchObject({ status: 302 });
      expect(site.state.requests).toBeGreaterThanOrEqual(6);
    } finally {
      site.state.mode = 'ok';
    }
  });
});

describe('care reports', () => {
  it('writes a month once per order (the current month "so far"), lists it with its PDF, and the schedule mails the month before with the PDF', async () => {
    const month = monthOf(new Date(), t.deps.config.INVOICE_TIME_ZONE);
    expect((await send(t, alice, 'POST', '/api/v1/admin/care-reports/run', { month })).statusCode).toBe(403);
    const first = await send(t, owner, 'POST', '/api/v1/admin/care-reports/run', { month });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({ written: 1, skipped: 0 });
    expect((await send(t, owner, 'POST', '/api/v1/admin/care-reports/run', { month })).json()).toMatchObject({ written: 0, skipped: 1 });
    expect((await send(t, owner, 'POST', '/api/v1/admin/care-reports/run', { month: '2026-13' })).statusCode).toBe(400);

    const list = await get(t, alice, `/api/v1/orders/${aliceOrder}/care-reports`);
    expect(list.statusCode).toBe(200);
    expect(list.json().currentMonth).toBe(month);
    const [report] = list.json().reports;
    expect(report).toMatchObject({
      month,
      partial: true,
      incidents: expect.any(Number),
      pdfUrl: `/api/v1/orders/${aliceOrder}/care-reports/${month}/pdf?partial=1`,
    });
    const pdf = await get(t, alice, report.pdfUrl);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    expect((await get(t, mallory, report.pdfUrl)).statusCode).toBe(404);
    const page = (await get(t, alice, `/api/v1/orders/${aliceOrder}/care-reports/${month}?partial=1`)).json().report;
    expect(page.data).toMatchObject({
      orderId: aliceOrder,
      month,
      partial: true,
      support: { opened: 0, resolved: 0 },
      changes: [],
      charges: [],
    });
    expect(page.data.sites[0].checks).toBeGreaterThan(0);
    // "So far" reports are not mailed.
    expect(await mails(t, CARE_REPORT_TEMPLATE)).toHaveLength(0);

    // The 1st of next month at 09:00 in INVOICE_TIME_ZONE: the month's own report, mailed with its PDF.
    const [y, m] = month.split('-').map(Number) as [number, number];
    const reportDay =
      m === 12 ? zonedTime(y + 1, 1, 1, 9, t.deps.config.INVOICE_TIME_ZONE) : zonedTime(y, m + 1, 1, 9, t.deps.config.INVOICE_TIME_ZONE);
    expect((await runJobs(t.deps, new Date(reportDay.getTime() - MIN))).siteCare!.reports).toBe(0);
    expect(previousMonth(monthOf(reportDay, t.deps.config.INVOICE_TIME_ZONE))).toBe(month);
    expect((await runJobs(t.deps, reportDay)).siteCare!.reports).toBe(1);
    expect((await runJobs(t.deps, new Date(reportDay.getTime() + MIN))).siteCare!.reports).toBe(0);
    const [mail, ...more] = await mails(t, CARE_REPORT_TEMPLATE);
    expect(more).toHaveLength(0);
    expect(mail!.to_address).toBe('care.alice@example.com');
    expect(mail!.renders).toEqual([{ kind: 'care-report', id: expect.any(String) }]);
    const attached = await careReportAttachment(t.deps, mail!.renders![0]!.id);
    expect(attached.contentType).toBe('application/pdf');
    expect(attached.content.subarray(0, 5).toString()).toBe('%PDF-');
    expect(attached.filename).toBe(`care-report-${aliceOrder}-${month}.pdf`);
    // The mail worker draws it as it sends (app.ts names care reports to the outbox's renderer).
    await t.deps.mailer.drain();
    const [sent] = await t.deps.database.query<{ state: string; last_error: string | null }>(
      `select state, last_error from mail_outbox where template = $1`,
      [CARE_REPORT_TEMPLATE],
    );
    expect(sent).toEqual({ state: 'sent', last_error: null });
    const reports = (await get(t, owner, `/api/v1/admin/orders/${aliceOrder}/care-reports`)).json().reports;
    expect(reports.map((r: { partial: boolean }) => r.partial).sort()).toEqual([false, true]);
  }, 60_000);
});

describe('/admin/sites', () => {
  it('lists every watched site, down first; staff see it, customers do not', async () => {
    const staff = await loginAs(t, 'care.staff@example.com', 'staff');
    const { orderId } = await seedDeliveredOrder(t, 'care.bob@example.com');
    await t.deps.database.query(`update orders set delivery_url = $2 where public_id = $1`, [
      orderId,
      `http://down.example.test:${site.port}/`,
    ]);
    await t.deps.database.query(`update watched_sites s set state = 'down' from orders o where o.id = s.order_id and o.public_id = $1`, [
      orderId,
    ]);
    const res = await get(t, staff, '/api/v1/admin/sites');
    expect(res.statusCode, res.body).toBe(200);
    const sites = res.json().sites as { orderId: string; status: string }[];
    const downCount = sites.filter((s) => s.status === 'down').length;
    expect(sites.slice(0, downCount).every((s) => s.status === 'down')).toBe(true);
    expect(sites.slice(0, downCount).some((s) => s.orderId === orderId)).toBe(true);
    expect(sites.some((s) => s.orderId === aliceOrder)).toBe(true);
    expect((await get(t, alice, '/api/v1/admin/sites')).statusCode).toBe(403);
    // Watching stops with a note when neither support nor the plan covers the order, unless the owner keeps it.
    await t.deps.database.query(
      `update order_stages set completed_at = now() - interval '400 days' where order_id = (select id from orders where public_id = $1)`,
      [orderId],
    );
    await runJobs(t.deps, new Date());
    let bob = (await get(t, owner, `/api/v1/admin/orders/${orderId}/site-health`)).json();
    expect(bob.sites[0]).toMatchObject({ watching: false, stoppedNote: expect.stringContaining('support') });
    expect((await send(t, staff, 'PUT', `/api/v1/admin/orders/${orderId}/site-care`, { keepWatching: true })).statusCode).toBe(403);
    expect((await send(t, owner, 'PUT', `/api/v1/admin/orders/${orderId}/site-care`, { keepWatching: true })).statusCode).toBe(200);
    bob = (await get(t, owner, `/api/v1/admin/orders/${orderId}/site-health`)).json();
    expect(bob.sites[0]).toMatchObject({ watching: true, stoppedNote: null });
  });
});

describe('settings', () => {
  it('validates the interval and switches the checks off in tests unless asked', () => {
    expect(() => loadConfig({ NODE_ENV: 'test', SITE_CHECK_INTERVAL_SECONDS: '10' })).toThrow(
      /SITE_CHECK_INTERVAL_SECONDS must be at least 30/,
    );
    expect(() => loadConfig({ NODE_ENV: 'test', SITE_CHECKS: 'maybe' })).toThrow(/SITE_CHECKS must be on or off/);
    expect(() => loadConfig({ NODE_ENV: 'test', RDAP_BASE_URL: 'rdap' })).toThrow(/RDAP_BASE_URL must be a URL/);
    expect(loadConfig({ NODE_ENV: 'test' })).toMatchObject({
      siteChecks: false,
      SITE_CHECK_INTERVAL_SECONDS: 300,
      SITE_CHECK_ALLOW_PRIVATE: false,
      RDAP_BASE_URL: 'https://rdap.org',
    });
    expect(loadConfig({ NODE_ENV: 'development' }).siteChecks).toBe(true);
    expect(loadConfig({ NODE_ENV: 'development', SITE_CHECKS: 'off' }).siteChecks).toBe(false);
    expect(loadConfig({ NODE_ENV: 'test', SITE_CHECKS: 'on', RDAP_BASE_URL: 'http://127.0.0.1:9/' }).RDAP_BASE_URL).toBe(
      'http://127.0.0.1:9',
    );
  });
});
