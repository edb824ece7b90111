import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, loginAs, type TestApp } from '../../../../tests/helpers/test-app.ts';
import { seedPaidOrder, seedRemainingPayment } from '../../../../tests/fixtures/paid-orders.ts';

let t: TestApp;
let owner: Awaited<ReturnType<typeof loginAs>>;
let seeded: Awaited<ReturnType<typeof seedPaidOrder>>;

beforeAll(async () => {
  t = await buildTestApp();
  owner = await loginAs(t, 'founder@example.com', 'admin');
  seeded = await seedPaidOrder(t, 'ordering@example.com');
});
afterAll(() => t.close());

const call = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
  t.app.inject({ method, url: `/api/v1/admin/${url}`, headers: owner.headers, payload });
const status = async () =>
  (await t.app.inject({ method: 'GET', url: `/api/v1/status/getStatus/order/${seeded.orderId}`, headers: seeded.customer.headers })).json();

describe('admin orders', () => {
  it('lists orders with customer, totals, installments and stage; searches and pages', async () => {
    const list = (await call('GET', 'orders')).json();
    expect(list.pageInfo.total).toBe(1);
    expect(list.items[0]).toMatchObject({
      id: seeded.orderId,
      customerEmail: 'ordering@example.com',
      completedStages: 1,
      advance: { state: 'paid' },
      remaining: { state: 'due' },
    });
    expect(list.items[0].advance.amount + list.items[0].remaining.amount).toBe(list.items[0].total);
    expect((await call('GET', 'orders?q=ORDERING')).json().items).toHaveLength(1);
    expect((await call('GET', `orders?q=${seeded.orderId.toLowerCase()}`)).json().items).toHaveLength(1);
    expect((await call('GET', 'orders?q=nobody')).json().items).toHaveLength(0);
    expect((await call('GET', 'orders?stage=1')).json().items).toHaveLength(1);
    expect((await call('GET', 'orders?page=2')).json()).toMatchObject({ items: [], pageInfo: { page: 2, total: 1 } });
    expect((await call('GET', 'orders?pageSize=1000')).statusCode).toBe(400);
  });

  it('shows the order with payments (provider ids, times) and all 15 stages', async () => {
    const d = (await call('GET', `orders/${seeded.orderId}`)).json();
    expect(d.customer.email).toBe('ordering@example.com');
    expect(d.stages).toHaveLength(15);
    expect(d.stages[0].completedAt).toBeTruthy();
    expect(d.stages[1].completedAt).toBeNull();
    const adv = d.installments.find((i: { kind: string }) => i.kind === 'advance');
    expect(adv).toMatchObject({ state: 'paid', providerPaymentId: expect.stringMatching(/^pay_seed_/) });
    expect(adv.attempts[0]).toMatchObject({ provider: 'test', state: 'paid', providerOrderId: expect.any(String) });
    expect((await call('GET', 'orders/ORDNOSUCH')).statusCode).toBe(404);
    expect((await call('GET', 'orders/bad%20id')).statusCode).toBe(400);
  });

  it('completes the next stage with a note the customer sees (as text) and is told of, audited', async () => {
    const html = '<script>alert(1)</script> UI call booked';
    const res = await call('POST', `orders/${seeded.orderId}/stages/next`, { note: html });
    expect(res.json()).toEqual({ orderId: seeded.orderId, completedStages: 2 });
    // The wire value is the index of the last completed stage (spec §4): stage 2 done → 1.
    expect((await status()).completed_steps).toBe(1);
    // The customer hears of it in the order's batched notice mail (decision 155), which names the
    // stage and never the note's text.
    const notice = await t.deps.database.query<{ summary: string }>(
      `select n.summary from notices n join orders o on o.id = n.order_id where o.public_id = $1 and n.kind = 'stage_completed' and n.recipient = 'customer'`,
      [seeded.orderId],
    );
    expect(notice.map((n) => n.summary)).toEqual(['UI Discussion completed (stage 2 of 15)']);
    const audit = (await call('GET', `audit?entity=order&entityId=${seeded.orderId}`)).json();
    expect(audit.items[0]).toMatchObject({
      action: 'order.stage.complete',
      before: { completedStages: 1 },
      after: { completedStages: 2, stage: 'UI Discussion', note: html },
    });
  });

  it('refuses a note over 500 characters, and a stage out of order (remaining payment not in)', async () => {
    expect((await call('POST', `orders/${seeded.orderId}/stages/next`, { note: 'x'.repeat(501) })).statusCode).toBe(400);
    for (let i = 3; i <= 13; i++)
      expect((await call('POST', `orders/${seeded.orderId}/stages/next`, { note: `Stage ${i}` })).statusCode).toBe(200);
    // Stage 4 is named "UI Completed": its notice says so once.
    const subjects = (
      await t.deps.database.query<{ summary: string }>(
        `select n.summary from notices n join orders o on o.id = n.order_id where o.public_id = $1 and n.kind = 'stage_completed'`,
        [seeded.orderId],
      )
    ).map((r) => r.summary);
    expect(subjects).toContain('UI Completed (stage 4 of 15)');
    expect(subjects).toContain('UI Discussion completed (stage 2 of 15)');
    expect(subjects.filter((x) => /completed completed/i.test(x))).toEqual([]);
    const early = await call('POST', `orders/${seeded.orderId}/stages/next`, {});
    expect(early.statusCode).toBe(409);
    expect(early.json().message).toContain('remaining payment');
  });

  it('undoes the last stage with a reason, never a payment stage; the reason is required', async () => {
    expect((await call('POST', `orders/${seeded.orderId}/stages/undo`, {})).statusCode).toBe(400);
    expect((await call('POST', `orders/${seeded.orderId}/stages/undo`, { reason: 'x'.repeat(501) })).statusCode).toBe(400);
    const res = await call('POST', `orders/${seeded.orderId}/stages/undo`, { reason: 'Marked by mistake' });
    expect(res.json().completedStages).toBe(12);
    const audit = (await call('GET', `audit?action=order.stage.undo`)).json();
    expect(audit.items[0]).toMatchObject({
      before: { completedStages: 13, stage: 'Launch Readiness', note: 'Stage 13' },
      after: { completedStages: 12, reason: 'Marked by mistake' },
    });
    expect((await call('POST', `orders/${seeded.orderId}/stages/next`, { note: 'Stage 13 again' })).json().completedStages).toBe(13);
  });

  it.each([
    ['javascript:alert(1)'],
    ['ftp://example.com/site'],
    ['example.com'],
    ['https://'],
    ['https://exa mple.com'],
    ['data:text/html,hi'],
  ])('refuses the delivery link %s', async (url) => {
    const res = await call('PUT', `orders/${seeded.orderId}/delivery-link`, { url });
    expect(res.statusCode).toBe(400);
  });

  it('keeps the delivery link from the customer until the remaining payment, which then completes delivery', async () => {
    expect((await call('PUT', `orders/${seeded.orderId}/delivery-link`, { url: 'https://client-site.example.com' })).json()).toEqual({
      deliveryUrl: 'https://client-site.example.com',
    });
    expect(JSON.stringify(await status())).not.toContain('client-site.example.com');
    await seedRemainingPayment(t, seeded.customer, seeded.orderId);
    // With the link already set, the remaining payment completes stages 14 and 15.
    expect((await status()).completed_steps).toBe(14);
    expect(JSON.stringify(await status())).toContain('https://client-site.example.com');
    const past = await call('POST', `orders/${seeded.orderId}/stages/next`, {});
    expect(past.statusCode).toBe(409);
    expect(past.json().message).toBe('All stages are already complete.');
  });

  it('keeps the internal note away from the customer; long notes refused; audited', async () => {
    const note = 'Client is <b>picky</b> about fonts';
    expect((await call('PUT', `orders/${seeded.orderId}/internal-note`, { note })).json()).toEqual({ note });
    expect((await call('GET', `orders/${seeded.orderId}`)).json().order.internalNote).toBe(note);
    expect(JSON.stringify(await status())).not.toContain('picky');
    const mine = await t.app.inject({ method: 'GET', url: '/api/v1/order/getAllOrders/user', headers: seeded.customer.headers });
    expect(mine.body).not.toContain('picky');
    expect((await call('PUT', `orders/${seeded.orderId}/internal-note`, { note: 'x'.repeat(5001) })).statusCode).toBe(400);
    const audit = (await call('GET', 'audit?action=order.internal_note.set')).json();
    expect(audit.items[0]).toMatchObject({ before: { note: null }, after: { note } });
  });
});
