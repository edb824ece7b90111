import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, loginAs, type TestApp } from '../../../../tests/helpers/test-app.ts';
import { loadConfig } from '../../config.ts';
import { seedPaidOrder } from '../../../../tests/fixtures/paid-orders.ts';
import { getOverview } from '../admin/overview.ts';
import { listOrders } from '../admin/orders.ts';
import { recordUiApproval } from './record-ui-approval.ts';
import { seedDeliveredOrder } from '../../../../tests/fixtures/delivered-orders.ts';

// The UI approval sets the due date; the tracker and the back office show it.

let t: TestApp;
let owner: Awaited<ReturnType<typeof loginAs>>;
beforeAll(async () => {
  t = await buildTestApp();
  owner = await loginAs(t, 'due.boss@example.com', 'admin');
});
afterAll(() => t.close());

const internalId = async (publicId: string) =>
  (await t.deps.database.query<{ id: string }>('select id from orders where public_id = $1', [publicId]))[0]!.id;
const approve = async (publicId: string, at: string) => {
  const id = await internalId(publicId);
  return t.deps.db.transaction((tx) => recordUiApproval(tx, id, new Date(at), t.deps.config.DELIVERY_DAYS_AFTER_UI_APPROVAL));
};

describe('delivery date', () => {
  it('DELIVERY_DAYS_AFTER_UI_APPROVAL defaults to 28 and is validated', () => {
    expect(t.deps.config.DELIVERY_DAYS_AFTER_UI_APPROVAL).toBe(28);
    expect(
      loadConfig({ NODE_ENV: 'test', DELIVERY_DAYS_AFTER_UI_APPROVAL: '10' }, { dataDir: 'memory' }).DELIVERY_DAYS_AFTER_UI_APPROVAL,
    ).toBe(10);
    expect(() => loadConfig({ NODE_ENV: 'test', DELIVERY_DAYS_AFTER_UI_APPROVAL: '0' }, { dataDir: 'memory' })).toThrow(
      /DELIVERY_DAYS_AFTER_UI_APPROVAL/,
    );
  });

  it('getStatus says null until the UI approval, then the date 28 days on; the first approval stands', async () => {
    const { customer, orderId } = await seedPaidOrder(t, 'due.owner@example.com');
    const status = async () =>
      (await t.app.inject({ method: 'GET', url: `/api/v1/status/getStatus/order/${orderId}`, headers: customer.headers })).json();
    const before = await status();
    expect(before).toMatchObject({ dueDate: null, uiApprovedAt: null, completed_steps: 0 });

    expect(await approve(orderId, '2026-11-25T21:30:00Z')).toEqual({
      uiApprovedAt: new Date('2026-11-25T21:30:00Z'),
      dueDate: '2026-12-23',
      recorded: true,
    });
    const after = await status();
    expect(after).toMatchObject({ dueDate: '2026-12-23', uiApprovedAt: '2026-11-25T21:30:00.000Z' });
    // Existing fields unchanged.
    expect(Object.keys(after)).toEqual(expect.arrayContaining(Object.keys(before)));
    expect({ ...after, dueDate: null, uiApprovedAt: null }).toEqual(before);

    // A second approval (a later round, or the same event again) does not move the promise.
    expect(await approve(orderId, '2026-12-05T10:00:00Z')).toEqual({
      uiApprovedAt: new Date('2026-11-25T21:30:00Z'),
      dueDate: '2026-12-23',
      recorded: false,
    });
    expect((await status()).dueDate).toBe('2026-12-23');
    // Nobody else sees it.
    const stranger = await loginAs(t, 'due.stranger@example.com');
    expect(
      (await t.app.inject({ method: 'GET', url: `/api/v1/status/getStatus/order/${orderId}`, headers: stranger.headers })).statusCode,
    ).toBe(404);
  });

  it('the back office: days left on each order, and the overview lists orders due within 7 days and overdue ones', async () => {
    const soon = (await seedPaidOrder(t, 'due.soon@example.com')).orderId;
    const late = (await seedPaidOrder(t, 'due.late@example.com')).orderId;
    const far = (await seedPaidOrder(t, 'due.far@example.com')).orderId;
    const none = (await seedPaidOrder(t, 'due.none@example.com')).orderId;
    await approve(soon, '2026-11-20T09:00:00Z'); // due 2026-12-18
    await approve(late, '2026-11-10T09:00:00Z'); // due 2026-12-08
    await approve(far, '2026-12-01T09:00:00Z'); // due 2026-12-29
    const now = new Date('2026-12-11T12:00:00Z');

    const rows = (await listOrders(t.deps.database, { page: 1, pageSize: 100 }, now)).items;
    const row = (id: string) => rows.find((r) => r.id === id)!;
    expect(row(soon)).toMatchObject({ dueDate: '2026-12-18', daysLeft: 7, uiApprovedAt: '2026-11-20T09:00:00.000Z' });
    expect(row(late)).toMatchObject({ dueDate: '2026-12-08', daysLeft: -3 });
    expect(row(far)).toMatchObject({ dueDate: '2026-12-29', daysLeft: 18 });
    expect(row(none)).toMatchObject({ dueDate: null, daysLeft: null, uiApprovedAt: null });

    const overview = await getOverview(t.deps.database, now);
    expect(overview.ordersDueSoon.map((o) => o.orderId)).toEqual([soon]);
    expect(overview.ordersDueSoon[0]).toEqual({
      orderId: soon,
      customerEmail: 'due.soon@example.com',
      customerName: 'due.soon',
      dueDate: '2026-12-18',
      daysLeft: 7,
    });
    expect(overview.ordersOverdue.map((o) => [o.orderId, o.daysLeft])).toEqual(expect.arrayContaining([[late, -3]]));
    expect(overview.ordersOverdue.map((o) => o.orderId)).not.toContain(far);

    // Over HTTP, with today's date: the fields are there for the founder only.
    const http = await t.app.inject({ method: 'GET', url: '/api/v1/admin/overview', headers: owner.headers });
    expect(http.statusCode).toBe(200);
    expect(http.json()).toHaveProperty('ordersDueSoon');
    expect(http.json()).toHaveProperty('ordersOverdue');
    const detail = await t.app.inject({ method: 'GET', url: `/api/v1/admin/orders/${soon}`, headers: owner.headers });
    expect(detail.json().order).toMatchObject({ dueDate: '2026-12-18', uiApprovedAt: '2026-11-20T09:00:00.000Z' });
  });

  it('once delivered, getStatus carries deliveredAt (the "Website Delivery" time); null before', async () => {
    const { customer, orderId } = await seedDeliveredOrder(t, 'due.delivered@example.com');
    const body = (
      await t.app.inject({ method: 'GET', url: `/api/v1/status/getStatus/order/${orderId}`, headers: customer.headers })
    ).json();
    const [stage] = await t.deps.database.query<{ completed_at: Date }>(
      'select s.completed_at from order_stages s join orders o on o.id = s.order_id where o.public_id = $1 and s.stage = 15',
      [orderId],
    );
    expect(body.completed_steps).toBe(14);
    expect(body.deliveredAt).toBe(new Date(stage!.completed_at).toISOString());
    const early = await seedPaidOrder(t, 'due.undelivered@example.com');
    expect(
      (
        await t.app.inject({ method: 'GET', url: `/api/v1/status/getStatus/order/${early.orderId}`, headers: early.customer.headers })
      ).json().deliveredAt,
    ).toBeNull();
  });
});
