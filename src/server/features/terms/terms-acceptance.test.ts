import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, loginAs, type TestApp } from '../../../../tests/helpers/test-app.ts';
import { payInstallment } from '../../../../tests/helpers/test-checkout.ts';
import { TERMS_SECTIONS, termsCanonicalText } from '../../../domain/terms.ts';
import { TERMS_VERSION, clientHash } from './terms-acceptance.ts';

// The advance needs the terms accepted; the order keeps the evidence (decision 146).

let t: TestApp;
let owner: Awaited<ReturnType<typeof loginAs>>;
beforeAll(async () => {
  t = await buildTestApp();
  owner = await loginAs(t, 'terms.boss@example.com', 'admin');
});
afterAll(() => t.close());

const createOrder = (who: { headers: Record<string, string> }, body: object, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url: '/api/v1/payment/create-order', headers: { ...who.headers, ...headers }, payload: body });

describe('terms accepted at checkout', () => {
  it('refuses the advance without acceptTerms: true (400, clear message, nothing written)', async () => {
    const buyer = await loginAs(t, 'terms.refused@example.com');
    for (const body of [{ kind: 'advance' }, { kind: 'advance', acceptTerms: false }, {}]) {
      const res = await createOrder(buyer, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().message).toBe('Please agree to the Terms and Conditions before paying the advance (acceptTerms: true).');
    }
    expect((await createOrder(buyer, { kind: 'advance', acceptTerms: 'yes' })).statusCode).toBe(400);
    const [n] = await t.deps.database.query<{ n: number }>(
      `select count(*)::int as n from orders o join users u on u.id = o.user_id where u.email = 'terms.refused@example.com'`,
    );
    expect(n!.n).toBe(0);
  });

  it('records the version, the time and a hash of order id, address and user agent; the back office shows it', async () => {
    const buyer = await loginAs(t, 'terms.accepted@example.com');
    const before = Date.now();
    const res = await createOrder(buyer, { kind: 'advance', acceptTerms: true }, { 'user-agent': 'Mozilla/5.0 (terms test)' });
    expect(res.statusCode).toBe(200);
    const [row] = await t.deps.database.query<{ public_id: string; terms_version: string; accepted_at: Date; client_hash: string }>(
      `select o.public_id, a.terms_version, a.accepted_at, a.client_hash
         from orders o join users u on u.id = o.user_id join order_terms_acceptances a on a.order_id = o.id
        where u.email = 'terms.accepted@example.com'`,
    );
    expect(row!.terms_version).toBe(TERMS_VERSION);
    expect(new Date(row!.accepted_at).getTime()).toBeGreaterThanOrEqual(before - 1000);
    // inject() comes from 127.0.0.1; the hash is reproducible by anyone holding the three values, never stores them.
    expect(row!.client_hash).toBe(createHash('sha256').update(`${row!.public_id}\n127.0.0.1\nMozilla/5.0 (terms test)`).digest('hex'));
    expect(row!.client_hash).toBe(clientHash(row!.public_id, '127.0.0.1', 'Mozilla/5.0 (terms test)'));
    expect(row!.client_hash).not.toBe(clientHash('ORDOTHER', '127.0.0.1', 'Mozilla/5.0 (terms test)'));

    // Paid, the order shows it to the founder.
    const orderId = await payInstallment(t, buyer, { kind: 'advance', acceptTerms: true });
    const detail = await t.app.inject({ method: 'GET', url: `/api/v1/admin/orders/${orderId}`, headers: owner.headers });
    expect(detail.statusCode).toBe(200);
    expect(detail.json().termsAcceptance).toMatchObject({ version: TERMS_VERSION, clientHash: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(Date.parse(detail.json().termsAcceptance.acceptedAt)).toBeGreaterThanOrEqual(before - 1000);
  });

  it('leaves the remaining payment as it was (no acceptTerms needed)', async () => {
    const buyer = await loginAs(t, 'terms.remaining@example.com');
    const orderId = await payInstallment(t, buyer, { kind: 'advance' });
    const res = await createOrder(buyer, { kind: 'remaining', orderId });
    expect(res.statusCode).toBe(200);
  });

  it('the version is the hash of the wording the terms page shows', () => {
    expect(TERMS_VERSION).toMatch(/^[0-9a-f]{16}$/);
    expect(TERMS_VERSION).toBe(createHash('sha256').update(termsCanonicalText()).digest('hex').slice(0, 16));
    // Every section's wording is in the hashed text, so changing a word makes a new version.
    for (const s of TERMS_SECTIONS)
      for (const part of s.body) expect(termsCanonicalText()).toContain(JSON.stringify(typeof part === 'string' ? part : part.text));
  });
});

describe('the accepted terms can be read again (docs/decisions/272-accepted-terms-readable.md)', () => {
  it('keeps the wording of each accepted version and serves it, even after the page changed', async () => {
    const buyer = await loginAs(t, 'terms.reader@example.com');
    const orderId = await payInstallment(t, buyer, { kind: 'advance', acceptTerms: true });
    const [kept] = await t.deps.database.query<{ wording: string }>(`select wording from terms_versions where version = $1`, [
      TERMS_VERSION,
    ]);
    expect(kept!.wording).toBe(termsCanonicalText());

    const read = await t.app.inject({ method: 'GET', url: `/api/v1/terms/versions/${TERMS_VERSION}` });
    expect(read.statusCode).toBe(200);
    const body = read.json();
    expect(body).toMatchObject({ version: TERMS_VERSION, current: true });
    expect(body.intro).toBe(
      `These terms apply to every website ordered from ${t.deps.config.BRAND_NAME}. By placing an order you accept them.`,
    );
    expect(body.sections.map((s: { title: string }) => s.title)).toEqual(TERMS_SECTIONS.map((s) => s.title));
    expect(JSON.stringify(body)).not.toContain('{brand}');

    // An older version (the page has changed since): its own wording, not today's.
    const old = { intro: 'Old intro of {brand}.', sections: [{ title: 'Old section', body: ['Old words.'] }] };
    await t.deps.database.query(`insert into terms_versions (version, wording) values ('00000000000000aa', $1)`, [JSON.stringify(old)]);
    const older = await t.app.inject({ method: 'GET', url: '/api/v1/terms/versions/00000000000000aa' });
    expect(older.json()).toEqual({
      version: '00000000000000aa',
      current: false,
      intro: `Old intro of ${t.deps.config.BRAND_NAME}.`,
      sections: [{ title: 'Old section', body: ['Old words.'] }],
    });
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/terms/versions/00000000000000ff' })).statusCode).toBe(404);
    const bad = await t.app.inject({ method: 'GET', url: '/api/v1/terms/versions/not-a-version' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/16 hexadecimal/);

    // The customer reads which version they accepted, and when; another customer's order is a 404.
    const mine = await t.app.inject({ method: 'GET', url: `/api/v1/orders/${orderId}/terms`, headers: buyer.headers });
    expect(mine.statusCode).toBe(200);
    expect(mine.json().termsAccepted).toEqual({
      version: TERMS_VERSION,
      acceptedAt: expect.any(String),
      url: `/api/v1/terms/versions/${TERMS_VERSION}`,
    });
    const other = await loginAs(t, 'terms.other@example.com');
    expect((await t.app.inject({ method: 'GET', url: `/api/v1/orders/${orderId}/terms`, headers: other.headers })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: `/api/v1/orders/${orderId}/terms` })).statusCode).toBe(401);
    // The same time the back office shows.
    const detail = await t.app.inject({ method: 'GET', url: `/api/v1/admin/orders/${orderId}`, headers: owner.headers });
    expect(detail.json().termsAcceptance.acceptedAt).toBe(mine.json().termsAccepted.acceptedAt);
    // In the public API description.
    const doc = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
    expect(doc.paths['/api/v1/terms/versions/{version}']).toHaveProperty('get');
    expect(doc.paths['/api/v1/orders/{orderId}/terms']).toHaveProperty('get');
  });
});
