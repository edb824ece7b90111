import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, loginAs, type TestApp } from '../../../../tests/helpers/test-app.ts';
import { PROMOTION_CACHE_MS, PROMOTION_TOPIC } from './routes.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const get = () => t.app.inject({ method: 'GET', url: '/api/v1/promotion' });
// These tests change the database behind the back office's back, so they announce the change the
// way the back office's writes do (the answer is cached, decision 070).
const sql = async (text: string, params: unknown[] = []) => {
  await t.deps.database.query(text, params);
  t.deps.bus.publish(PROMOTION_TOPIC);
};
const feature = (code: string | null) =>
  sql(`update site_settings set value = $1::jsonb where key = 'featured_promotion'`, [JSON.stringify({ couponCode: code })]);

describe('GET /api/v1/promotion', () => {
  it('returns the seeded FIRSTWEB25 promotion (spec §1, §9)', async () => {
    const res = await get();
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      promotion: { code: 'FIRSTWEB25', percent: 20, endsAt: '2025-01-31T23:59:59.000Z', description: 'NEW YEAR, NEW WEBSITE' },
    });
    expect(res.headers['cache-control']).toContain('max-age=50');
  });

  it('follows the featured coupon the founder chose', async () => {
    await sql(`insert into coupons (code, kind, percent, valid_until) values ('SPRING30', 'promo', 30, null)`);
    await feature('spring30');
    expect((await get()).json()).toEqual({ promotion: { code: 'SPRING30', percent: 30, endsAt: null, description: null } });
  });

  it('returns null for an inactive, missing or unset coupon', async () => {
    await sql(`update coupons set active = false where code = 'SPRING30'`);
    expect((await get()).json()).toEqual({ promotion: null });
    await feature('NOSUCH');
    expect((await get()).json()).toEqual({ promotion: null });
    await feature(null);
    expect((await get()).json()).toEqual({ promotion: null });
    await sql(`delete from site_settings where key = 'featured_promotion'`);
    expect((await get()).json()).toEqual({ promotion: null });
  });

  it('is answered from memory, and a change in the back office shows at once', async () => {
    const { headers } = await loginAs(t, 'founder@example.com', 'admin');
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/v1/admin/coupons',
      headers,
      payload: { code: 'CACHED10', percent: 10, description: 'Cached' },
    });
    const { id } = (created.json() as { coupon: { id: string } }).coupon;
    await t.app.inject({ method: 'PUT', url: '/api/v1/admin/promotion', headers, payload: { couponCode: 'CACHED10' } });
    expect((await get()).json()).toMatchObject({ promotion: { code: 'CACHED10' } });
    // A write behind the back office's back is not seen until the TTL (proves the cache is used)…
    await t.deps.database.query(`update coupons set percent = 11 where code = 'CACHED10'`);
    expect((await get()).json()).toMatchObject({ promotion: { percent: 10 } });
    expect(PROMOTION_CACHE_MS).toBeLessThanOrEqual(60_000 / 4);
    // …while the founder's edit through the back office is.
    expect(
      (await t.app.inject({ method: 'PATCH', url: `/api/v1/admin/coupons/${id}`, headers, payload: { percent: 12 } })).statusCode,
    ).toBe(200);
    expect((await get()).json()).toMatchObject({ promotion: { code: 'CACHED10', percent: 12 } });
  });
});
