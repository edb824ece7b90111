import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { buildTestApp, loginAs, type TestApp } from '../../../../tests/helpers/test-app.ts';
import { openCheckout, payInstallment } from '../../../../tests/helpers/test-checkout.ts';
import { orders } from '../../db/schema/orders.ts';
import { mailOutbox } from '../../db/schema/platform.ts';
import { invoices } from '../../db/schema/invoices.ts';
import { runJobs } from '../jobs/run-jobs.ts';

const HOUR = 60 * 60 * 1000;
const inHours = (h: number) => new Date(Date.now() + h * HOUR);

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
  await t.deps.database.query(`insert into coupons (code, kind, percent) values ('SPRING10', 'promo', 10)`);
});
afterAll(async () => t?.close());

const followUps = (to: string) =>
  t.deps.db
    .select()
    .from(mailOutbox)
    .where(and(eq(mailOutbox.toAddress, to), eq(mailOutbox.template, 'checkout-followup')));

describe('abandoned advance checkouts', () => {
  it('get one friendly e-mail after 24 h (naming the coupon while valid), and are deleted after 30 days', async () => {
    const who = await loginAs(t, 'hesitant@example.com');
    await openCheckout(t, who, { kind: 'advance', couponCode: 'SPRING10' });
    await openCheckout(t, who, { kind: 'advance', couponCode: 'SPRING10' }); // tried twice
    await runJobs(t.deps, inHours(23));
    expect(await followUps(who.user.email)).toHaveLength(0);
    await Promise.all([runJobs(t.deps, inHours(25)), runJobs(t.deps, inHours(25))]);
    await runJobs(t.deps, inHours(48));
    const mails = await followUps(who.user.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.textBody).toContain('SPRING10 is still valid');

    const admin = await loginAs(t, 'drafts-admin@example.com', 'admin');
    const list = (await t.app.inject({ method: 'GET', url: '/api/v1/admin/checkout-drafts', headers: admin.headers })).json();
    const mine = list.drafts.filter((d: { email: string }) => d.email === who.user.email);
    expect(mine).toHaveLength(2);
    expect(mine.filter((d: { followedUpAt: string | null }) => d.followedUpAt)).toHaveLength(1);
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/admin/checkout-drafts', headers: who.headers })).statusCode).toBe(403);

    // The customer never saw the drafts; after 30 days they are gone, with nothing left behind.
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/order/getAllOrders/user', headers: who.headers })).json().orders).toEqual([]);
    const { draftsDeleted } = await runJobs(t.deps, inHours(31 * 24));
    expect(draftsDeleted).toBeGreaterThanOrEqual(2);
    expect(await t.deps.db.select().from(orders).where(eq(orders.userId, who.user.id))).toEqual([]);
    expect(await t.deps.db.select().from(invoices).where(eq(invoices.userId, who.user.id))).toEqual([]);
  });

  it('does not mention an expired coupon, and never mails someone who paid since', async () => {
    const late = await loginAs(t, 'late@example.com');
    await openCheckout(t, late, { kind: 'advance', couponCode: 'SPRING10' });
    await t.deps.database.query(`update coupons set active = false where code = 'SPRING10'`);
    await runJobs(t.deps, inHours(25));
    const [mail] = await followUps(late.user.email);
    expect(mail!.textBody).not.toContain('SPRING10');

    const payer = await loginAs(t, 'paid-later@example.com');
    await openCheckout(t, payer, { kind: 'advance' });
    await payInstallment(t, payer, { kind: 'advance' });
    await runJobs(t.deps, inHours(25));
    expect(await followUps(payer.user.email)).toHaveLength(0);

    // The back office marks the draft with the order paid since, instead of "Follow-up: not yet".
    const paid = (await t.app.inject({ method: 'GET', url: '/api/v1/order/getAllOrders/user', headers: payer.headers })).json().orders;
    expect(paid).toHaveLength(1);
    const admin = await loginAs(t, 'drafts-admin@example.com', 'admin');
    const list = (await t.app.inject({ method: 'GET', url: '/api/v1/admin/checkout-drafts', headers: admin.headers })).json();
    const drafts = list.drafts.filter((d: { email: string }) => d.email === payer.user.email);
    expect(drafts).toEqual([expect.objectContaining({ followUp: 'paid_since', paidOrderId: paid[0].order_id, followedUpAt: null })]);
    const lateDraft = list.drafts.find((d: { email: string }) => d.email === late.user.email);
    expect(lateDraft).toMatchObject({ followUp: 'sent', paidOrderId: null });
  });
});
