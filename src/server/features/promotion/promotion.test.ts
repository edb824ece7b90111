import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../../tests/helpers/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const get = () => t.app.inject({ method: 'GET', url: '/api/v1/promotion' });
const feature = (code: string | null) =>
  t.deps.database.query(`update site_settings set value = $1::jsonb where key = 'featured_promotion'`, [JSON.stringify({ couponCode: code })]);

describe('GET /api/v1/promotion', () => {
  it('returns the seeded FIRSTWEB25 promotion (spec §1, §9)', async () => {
    const res = await get();
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      promotion: { code: 'FIRSTWEB25', percent: 20, endsAt: '2025-01-31T23:59:59.000Z', description: 'NEW YEAR, NEW WEBSITE' },
    });
    expect(res.headers['cache-control']).toContain('max-age=60');
  });

  it('follows the featured coupon the founder chose', async () => {
    await t.deps.database.query(`insert into coupons (code, kind, percent, valid_until) values ('SPRING30', 'promo', 30, null)`);
    await feature('spring30');
    expect((await get()).json()).toEqual({ promotion: { code: 'SPRING30', percent: 30, endsAt: null, description: null } });
  });

  it('returns null for an inactive, missing or unset coupon', async () => {
    await t.deps.database.query(`update coupons set active = false where code = 'SPRING30'`);
    expect((await get()).json()).toEqual({ promotion: null });
    await feature('NOSUCH');
    expect((await get()).json()).toEqual({ promotion: null });
    await feature(null);
    expect((await get()).json()).toEqual({ promotion: null });
    await t.deps.database.query(`delete from site_settings where key = 'featured_promotion'`);
    expect((await get()).json()).toEqual({ promotion: null });
  });
});
