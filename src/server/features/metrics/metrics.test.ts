import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../../tests/helpers/test-app.ts';
import { chatClient } from '../../../../tests/helpers/chat-client.ts';
import { ConfigError, loadConfig } from '../../config.ts';
import { settlePayment } from '../payments/settle-payment.ts';

const TOKEN = 'scrape-token-0123456789abcdef';
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** The value of one sample line, e.g. metric(text, 'payment_outcomes_total{outcome="paid"}'). */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

// Building an app opens a fresh PGlite: seconds on a busy machine, so this file builds two.
const SLOW = 180_000;

describe('/metrics is off unless configured', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  }, SLOW);
  afterAll(() => t?.close());

  it('is an unknown path with neither METRICS_ALLOW nor METRICS_TOKEN, even from localhost', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/metrics', remoteAddress: '127.0.0.1', headers: bearer(TOKEN) });
    // What any unknown page path gets: 404 with a built site, 503 "not built" in this test app.
    expect([404, 503]).toContain(res.statusCode);
    expect(res.body).not.toContain('process_resident_memory_bytes');
    expect(t.deps.metrics).toBeUndefined();
  });
});

describe('/metrics with METRICS_TOKEN and METRICS_ALLOW behind a proxy (TRUST_PROXY=1)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ METRICS_TOKEN: TOKEN, METRICS_ALLOW: '10.0.0.0/8, 2001:db8::/32, 192.0.2.7', TRUST_PROXY: '1' });
  }, SLOW);
  afterAll(() => t?.close());

  it('refuses a missing or wrong token with 403 and a clear message (from an address not in the list)', async () => {
    for (const headers of [{}, bearer('wrong-token-0123456789abcdef'), bearer(`${TOKEN}x`), { authorization: TOKEN }]) {
      const res = await t.app.inject({ method: 'GET', url: '/metrics', headers });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ success: false, code: 'FORBIDDEN', message: expect.stringContaining('METRICS_TOKEN') });
      expect(res.body).not.toContain('http_request_duration_seconds');
    }
  });

  it('times requests by route pattern, never by raw URL', async () => {
    await t.app.inject({ method: 'GET', url: '/api/v1/health' });
    await t.app.inject({ method: 'GET', url: '/api/v1/status/getStatus/order/WA-SECRET-4711' });
    await t.app.inject({ method: 'GET', url: '/api/v1/no-such-thing-0815' });
    const res = await t.app.inject({ method: 'GET', url: '/metrics', headers: bearer(TOKEN) });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/plain');
    expect(res.headers['cache-control']).toBe('no-store');
    const text = res.body;
    expect(sample(text, 'http_request_duration_seconds_count{method="GET",route="/api/v1/health",status_code="200"}')).toBe(1);
    expect(text).toMatch(
      /http_request_duration_seconds_count\{method="GET",route="\/api\/v1\/status\/getStatus\/order\/:id",status_code="\d{3}"\} 1/,
    );
    // An unknown path is labelled by the route that answered it (the web build's wildcard `/*`), or
    // `(unmatched)` when no route did — never by its URL.
    expect(text).toMatch(/route="(\(unmatched\)|\/\*)",status_code="404"\} 1/);
    expect(text).not.toContain('WA-SECRET-4711');
    expect(text).not.toContain('no-such-thing-0815');
    // Default process metrics come along.
    expect(text).toContain('process_resident_memory_bytes');
  });

  it('counts payment outcomes', async () => {
    await settlePayment(t.deps, { providerOrderId: 'order_does_not_exist', paymentId: 'pay_x' });
    await settlePayment(t.deps, { providerOrderId: 'order_does_not_exist_either', paymentId: 'pay_y' });
    const text = (await t.app.inject({ method: 'GET', url: '/metrics', headers: bearer(TOKEN) })).body;
    expect(sample(text, 'payment_outcomes_total{outcome="unknown_order"}')).toBe(2);
  });

  it('reads the mail outbox depth and failures at scrape time', async () => {
    const row = (state: string, attempts: number) =>
      t.deps.database.query(
        `insert into mail_outbox (to_address, template, subject, text_body, html_body, state, attempts) values ('a@example.com', 't', 's', 'x', 'x', $1, $2)`,
        [state, attempts],
      );
    await row('pending', 0);
    await row('pending', 2);
    await row('failed', 5);
    await row('sent', 1);
    const text = (await t.app.inject({ method: 'GET', url: '/metrics', headers: bearer(TOKEN) })).body;
    expect(sample(text, 'mail_outbox_messages{state="pending"}')).toBe(2);
    expect(sample(text, 'mail_outbox_messages{state="retrying"}')).toBe(1);
    expect(sample(text, 'mail_outbox_messages{state="failed"}')).toBe(1);
  });

  it('counts connected sockets and reports the database pool (PostgreSQL only)', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const url = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
    const a = await chatClient(url);
    const b = await chatClient(url);
    try {
      const text = (await t.app.inject({ method: 'GET', url: '/metrics', headers: bearer(TOKEN) })).body;
      expect(sample(text, 'socketio_connected_sockets')).toBe(2);
      if (t.deps.database.pool) {
        expect(sample(text, 'db_pool_connections{state="total"}')).toBeGreaterThanOrEqual(1);
        expect(sample(text, 'db_pool_max')).toBe(t.deps.database.pool.options.max);
      } else {
        expect(text).not.toContain('db_pool_connections');
      }
    } finally {
      a.disconnect();
      b.disconnect();
    }
  });

  const scrape = (remoteAddress: string, forwardedFor?: string) =>
    t.app.inject({ method: 'GET', url: '/metrics', remoteAddress, headers: forwardedFor ? { 'x-forwarded-for': forwardedFor } : {} });

  it('lets listed addresses and subnets in, as seen through the trusted proxy', async () => {
    expect((await scrape('172.16.0.1', '10.20.30.40')).statusCode).toBe(200);
    expect((await scrape('172.16.0.1', '192.0.2.7')).statusCode).toBe(200);
    expect((await scrape('172.16.0.1', '2001:db8::42')).statusCode).toBe(200);
    expect((await scrape('10.1.1.1')).statusCode).toBe(200);
  });

  it('refuses everyone else, including a visitor whose proxy is in the list or who forges X-Forwarded-For', async () => {
    // nginx (10.0.0.5) is listed, but the client it forwards is not: the client is what counts.
    expect((await scrape('10.0.0.5', '203.0.113.9')).statusCode).toBe(403);
    // A forged left-most entry is not the address the trusted hop saw.
    expect((await scrape('172.16.0.1', '10.1.1.1, 203.0.113.9')).statusCode).toBe(403);
    expect((await scrape('192.0.2.8', '192.0.2.8')).statusCode).toBe(403);
    const res = await scrape('172.16.0.1', '198.51.100.1');
    expect(res.json()).toMatchObject({ code: 'FORBIDDEN', message: expect.stringContaining('METRICS_ALLOW') });
  });
});

describe('metrics configuration', () => {
  it('names a bad METRICS_ALLOW entry and a weak METRICS_TOKEN', () => {
    expect(() => loadConfig({ METRICS_ALLOW: '10.0.0.0/8,not-an-ip' })).toThrow(/METRICS_ALLOW: "not-an-ip" is not an IP address or CIDR/);
    expect(() => loadConfig({ METRICS_ALLOW: '10.0.0.0/33' })).toThrow(ConfigError);
    expect(() => loadConfig({ METRICS_TOKEN: 'short' })).toThrow(/METRICS_TOKEN must be at least 16 characters/);
    expect(loadConfig({ METRICS_ALLOW: '127.0.0.1, ::1, 10.0.0.0/8' }).METRICS_ALLOW).toEqual(['127.0.0.1', '::1', '10.0.0.0/8']);
  });
});
