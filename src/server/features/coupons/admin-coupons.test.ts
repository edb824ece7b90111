import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, loginAs, type TestApp } from '../../../../tests/helpers/test-app.ts';

let t: TestApp;
let headers: Record<string, string>;
const url = '/api/v1/admin/coupons';

beforeAll(async () => {
  t = await buildTestApp();
  headers = (await loginAs(t, 'owner@example.com', 'admin')).headers;
});
afterAll(() => t.close());

const post = (payload: unknown) => t.app.inject({ method: 'POST', url, headers, payload: payload as object });
const list = async () => (await t.app.inject({ method: 'GET', url, headers })).json();

describe('promo coupons', () => {
  it('creates a coupon, upper-casing the code, and records it in the audit log', async () => {
    const res = await post({
      code: 'spring-10',
      percent: 10,
      description: 'Spring',
      validFrom: '2026-03-01T00:00:00Z',
      validUntil: '2026-04-01T00:00:00Z',
      maxUses: 50,
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().coupon).toMatchObject({
      code: 'SPRING-10',
      percent: 10,
      maxUses: 50,
      active: true,
      redemptions: 0,
      featured: false,
      validUntil: '2026-04-01T00:00:00.000Z',
    });
    const audit = (await t.app.inject({ method: 'GET', url: '/api/v1/admin/audit?action=coupon.create', headers })).json();
    expect(audit.items[0]).toMatchObject({
      action: 'coupon.create',
      entity: 'coupon',
      actorEmail: 'owner@example.com',
      before: null,
      after: { code: 'SPRING-10', percent: 10 },
    });
  });

  it('gives each coupon one state: an expired code is "expired", not "active" too', async () => {
    const day = 86_400_000;
    const at = (ms: number) => new Date(Date.now() + ms).toISOString();
    expect((await post({ code: 'STATE-PAST', percent: 10, validFrom: at(-30 * day), validUntil: at(-day) })).statusCode).toBe(201);
    expect((await post({ code: 'STATE-SOON', percent: 10, validFrom: at(7 * day) })).statusCode).toBe(201);
    expect((await post({ code: 'STATE-NOW', percent: 10, validUntil: at(7 * day) })).statusCode).toBe(201);
    expect((await post({ code: 'STATE-OFF', percent: 10 })).statusCode).toBe(201);
    const off = (await list()).promos.find((c: { code: string }) => c.code === 'STATE-OFF');
    expect((await t.app.inject({ method: 'POST', url: `${url}/${off.id}/deactivate`, headers })).statusCode).toBe(200);
    const states = Object.fromEntries((await list()).promos.map((c: { code: string; state: string }) => [c.code, c.state]));
    expect(states).toMatchObject({ 'STATE-PAST': 'expired', 'STATE-SOON': 'scheduled', 'STATE-NOW': 'active', 'STATE-OFF': 'inactive' });
  });

  it.each([
    ['a negative percent', { code: 'BAD1', percent: -5 }, 'percent'],
    ['a zero percent', { code: 'BAD2', percent: 0 }, 'percent'],
    ['a percent over 100', { code: 'BAD3', percent: 101 }, 'percent'],
    ['a fractional percent', { code: 'BAD4', percent: 12.5 }, 'percent'],
    [
      'an end before the start',
      { code: 'BAD5', percent: 10, validFrom: '2026-05-01T00:00:00Z', validUntil: '2026-04-01T00:00:00Z' },
      'validUntil',
    ],
    [
      'an end equal to the start',
      { code: 'BAD6', percent: 10, validFrom: '2026-05-01T00:00:00Z', validUntil: '2026-05-01T00:00:00Z' },
      'validUntil',
    ],
    ['a code with spaces', { code: 'NO GOOD', percent: 10 }, 'code'],
    ['a code with HTML', { code: '<b>X</b>', percent: 10 }, 'code'],
    ['a too short code', { code: 'AB', percent: 10 }, 'code'],
    ['a date that is not a date', { code: 'BAD7', percent: 10, validUntil: 'tomorrow' }, 'validUntil'],
    ['max uses of 0', { code: 'BAD8', percent: 10, maxUses: 0 }, 'maxUses'],
    ['a 201-character description', { code: 'BAD9', percent: 10, description: 'x'.repeat(201) }, 'description'],
  ])('refuses %s with 400 naming the field', async (_, payload, field) => {
    const res = await post(payload);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ success: false, code: 'BAD_REQUEST' });
    expect(res.json().message).toContain(field);
  });

  it('refuses a duplicate code (in any case) with 409', async () => {
    expect((await post({ code: 'TWICE', percent: 5 })).statusCode).toBe(201);
    const res = await post({ code: 'twice', percent: 7 });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe('A coupon with the code TWICE already exists.');
    expect((await post({ code: 'FIRSTWEB25', percent: 7 })).statusCode).toBe(409);
  });

  it('keeps HTML in a description as plain text', async () => {
    const res = await post({ code: 'HTMLDESC', percent: 5, description: '<img src=x onerror=alert(1)>' });
    expect(res.statusCode).toBe(201);
    const found = (await list()).promos.find((c: { code: string }) => c.code === 'HTMLDESC');
    expect(found.description).toBe('<img src=x onerror=alert(1)>');
  });

  it('edits a coupon, checking the window against the stored dates, with before/after in the audit log', async () => {
    const { coupon } = (await post({ code: 'EDITME', percent: 5, validFrom: '2026-06-01T00:00:00Z' })).json();
    const bad = await t.app.inject({
      method: 'PATCH',
      url: `${url}/${coupon.id}`,
      headers,
      payload: { validUntil: '2026-05-01T00:00:00Z' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('The end must be after the start.');
    const bad2 = await t.app.inject({ method: 'PATCH', url: `${url}/${coupon.id}`, headers, payload: { percent: 150 } });
    expect(bad2.statusCode).toBe(400);
    const ok = await t.app.inject({
      method: 'PATCH',
      url: `${url}/${coupon.id}`,
      headers,
      payload: { percent: 30, validUntil: '2026-07-01T00:00:00Z', maxUses: null },
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().coupon).toMatchObject({ code: 'EDITME', percent: 30, validUntil: '2026-07-01T00:00:00.000Z' });
    const audit = (
      await t.app.inject({ method: 'GET', url: `/api/v1/admin/audit?entity=coupon&entityId=${coupon.id}&action=coupon.update`, headers })
    ).json();
    expect(audit.items).toHaveLength(1);
    expect(audit.items[0]).toMatchObject({
      before: { percent: 5, validUntil: null },
      after: { percent: 30, validUntil: '2026-07-01T00:00:00.000Z' },
    });
  });

  it('answers 404 for an unknown coupon and 400 for an id that is not a uuid', async () => {
    const missing = await t.app.inject({
      method: 'PATCH',
      url: `${url}/7d1f3a0e-0000-4000-8000-000000000000`,
      headers,
      payload: { percent: 5 },
    });
    expect(missing.statusCode).toBe(404);
    const junk = await t.app.inject({ method: 'POST', url: `${url}/not-a-uuid/deactivate`, headers });
    expect(junk.statusCode).toBe(400);
  });

  it('features a coupon for the banner, and refuses to deactivate the featured one', async () => {
    const { coupon } = (await post({ code: 'BANNER50', percent: 50, validUntil: '2030-01-01T00:00:00Z' })).json();
    const res = await t.app.inject({ method: 'PUT', url: '/api/v1/admin/promotion', headers, payload: { couponCode: 'banner50' } });
    expect(res.json()).toEqual({ featuredCode: 'BANNER50' });
    const setting = await t.deps.database.query<{ value: unknown }>(`select value from site_settings where key = 'featured_promotion'`);
    expect(setting[0]!.value).toEqual({ couponCode: 'BANNER50' });
    const listed = await list();
    expect(listed.featuredCode).toBe('BANNER50');
    expect(listed.promos.find((c: { code: string }) => c.code === 'BANNER50').featured).toBe(true);

    const refused = await t.app.inject({ method: 'POST', url: `${url}/${coupon.id}/deactivate`, headers });
    expect(refused.statusCode).toBe(409);
    const refused2 = await t.app.inject({ method: 'PATCH', url: `${url}/${coupon.id}`, headers, payload: { active: false } });
    expect(refused2.statusCode).toBe(409);

    const audit = (await t.app.inject({ method: 'GET', url: '/api/v1/admin/audit?action=promotion.feature', headers })).json();
    expect(audit.items[0]).toMatchObject({ before: { couponCode: 'FIRSTWEB25' }, after: { couponCode: 'BANNER50' } });
  });

  it('deactivates a coupon and will not feature an inactive or unknown one', async () => {
    const { coupon } = (await post({ code: 'OLDPROMO', percent: 5 })).json();
    const res = await t.app.inject({ method: 'POST', url: `${url}/${coupon.id}/deactivate`, headers });
    expect(res.statusCode).toBe(200);
    expect(res.json().coupon.active).toBe(false);
    const inactive = await t.app.inject({ method: 'PUT', url: '/api/v1/admin/promotion', headers, payload: { couponCode: 'OLDPROMO' } });
    expect(inactive.statusCode).toBe(400);
    const unknown = await t.app.inject({ method: 'PUT', url: '/api/v1/admin/promotion', headers, payload: { couponCode: 'NOSUCH' } });
    expect(unknown.statusCode).toBe(404);
  });
});
