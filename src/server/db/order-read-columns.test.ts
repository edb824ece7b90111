import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, loginAs, type TestApp } from '../../../tests/helpers/test-app.ts';
import { payInstallment } from '../../../tests/helpers/test-checkout.ts';
import { completeNextStage, undoLastStage } from '../features/tracker/complete-next-stage.ts';
import { addNotice, markNoticesRead } from '../features/notices/notices.ts';

// The order's stage_log and waiting notice kinds follow their tables in the writing transaction,
// whoever writes (migration 1010, docs/decisions/316-order-read-columns.md).

describe('columns the triggers keep on the order', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  }, 180_000);
  afterAll(async () => t?.close());

  const orderRow = async (publicId: string) =>
    (
      await t.deps.database.query<{ id: string; stage_log: [number, number, string | null][]; waiting_notices_customer: string[]; waiting_notices_agency: string[] }>(
        'select id, stage_log, waiting_notices_customer, waiting_notices_agency from orders where public_id = $1',
        [publicId],
      )
    )[0]!;
  const stagesOf = async (orderId: string) =>
    t.deps.database.query<{ stage: number; ms: string; note: string | null }>(
      `select stage, (extract(epoch from date_trunc('milliseconds', completed_at)) * 1000)::int8::text as ms, note from order_stages where order_id = $1 order by stage`,
      [orderId],
    );

  it('stage_log is the completed stages with their time and note, through completing and undoing', async () => {
    const who = await loginAs(t, 'stage-log@example.com');
    const publicId = await payInstallment(t, who, { kind: 'advance' });
    const { id } = await orderRow(publicId);
    await completeNextStage(t.deps, publicId, { note: 'Wireframes shared' });
    await completeNextStage(t.deps, publicId, {});
    const expected = async () => (await stagesOf(id)).map((s) => [s.stage, Number(s.ms), s.note]);
    expect((await orderRow(publicId)).stage_log).toEqual(await expected());
    expect((await orderRow(publicId)).stage_log).toHaveLength(3);
    expect((await orderRow(publicId)).stage_log[1]).toEqual([2, expect.any(Number), 'Wireframes shared']);

    await undoLastStage(t.deps, publicId, {});
    expect((await orderRow(publicId)).stage_log).toEqual(await expected());
    expect((await orderRow(publicId)).stage_log).toHaveLength(2);

    // Milliseconds are truncated, as a JS Date of the column would be: 12:00:00.123999 is .123.
    await t.deps.database.query(`update order_stages set completed_at = '2026-11-27 12:00:00.123999+00' where order_id = $1 and stage = 2`, [id]);
    expect((await orderRow(publicId)).stage_log[1]![1]).toBe(Date.parse('2026-11-27T12:00:00.123Z'));
  });

  it('the waiting kinds are the notices neither read nor mailed, per side', async () => {
    const who = await loginAs(t, 'waiting-kinds@example.com');
    const publicId = await payInstallment(t, who, { kind: 'advance' });
    const { id } = await orderRow(publicId);
    await t.deps.database.query('delete from notices where order_id = $1', [id]);
    expect((await orderRow(publicId)).waiting_notices_customer).toEqual([]);

    const at = new Date();
    await addNotice(t.deps.db, { orderId: id, recipient: 'customer', kind: 'stage_completed', refId: crypto.randomUUID(), summary: 'Stage done', at });
    await addNotice(t.deps.db, { orderId: id, recipient: 'customer', kind: 'review_opened', refId: crypto.randomUUID(), summary: 'Review', at });
    await addNotice(t.deps.db, { orderId: id, recipient: 'agency', kind: 'brief_submitted', refId: crypto.randomUUID(), summary: 'Brief', at });
    expect(await orderRow(publicId)).toMatchObject({ waiting_notices_customer: ['review_opened', 'stage_completed'], waiting_notices_agency: ['brief_submitted'] });

    await markNoticesRead(t.deps.db, id, 'customer', ['stage_completed']);
    expect((await orderRow(publicId)).waiting_notices_customer).toEqual(['review_opened']);
    // Mailed counts as no longer waiting, as for notices_waiting.
    await t.deps.database.query(`update notices set sent_at = now() where order_id = $1 and recipient = 'customer'`, [id]);
    expect((await orderRow(publicId)).waiting_notices_customer).toEqual([]);
    await t.deps.database.query(`delete from notices where order_id = $1 and recipient = 'agency'`, [id]);
    expect((await orderRow(publicId)).waiting_notices_agency).toEqual([]);
  });

  it('the unread counts are the other side\'s messages after each side\'s read marker', async () => {
    const who = await loginAs(t, 'unread-counts@example.com');
    const publicId = await payInstallment(t, who, { kind: 'advance' });
    const { id } = await orderRow(publicId);
    const counts = async () =>
      (await t.deps.database.query<{ c: number; a: number }>('select unread_messages_customer as c, unread_messages_agency as a from orders where id = $1', [id]))[0];
    const post = (sender: string) =>
      t.deps.database.query<{ seq: string }>(`insert into order_messages (order_id, sender, text) values ($1, $2, 'Hello') returning seq::text`, [id, sender]);
    await post('agency');
    const [second] = await post('agency');
    await post('customer');
    expect(await counts()).toEqual({ c: 2, a: 1 });
    await t.deps.database.query(`insert into order_message_reads (order_id, side, last_read_seq) values ($1, 'customer', $2)`, [id, second!.seq]);
    expect(await counts()).toEqual({ c: 0, a: 1 });
    await t.deps.database.query(`delete from order_message_reads where order_id = $1`, [id]);
    await t.deps.database.query(`delete from order_messages where order_id = $1 and sender = 'customer'`, [id]);
    expect(await counts()).toEqual({ c: 2, a: 0 });
  });

  it('the plan columns follow the newest subscription, as the maintenance plan\'s support extension reads it', async () => {
    const who = await loginAs(t, 'plan-columns@example.com');
    const publicId = await payInstallment(t, who, { kind: 'advance' });
    const { id } = await orderRow(publicId);
    const plan = async () =>
      (await t.deps.database.query<{ plan_view: { state: string; currentPeriodEnd: string | null; startsAt: string | null } | null; plan_covered_until: Date | null }>(
        'select plan_view, plan_covered_until from orders where id = $1',
        [id],
      ))[0]!;
    const subscribe = (n: number, state: string, paidUntil: string | null, createdAt: string) =>
      t.deps.database.query(
        `insert into maintenance_subscriptions (order_id, provider, provider_subscription_id, provider_plan_id, currency, amount, state, paid_until, created_at)
         values ($1, 'test', $2, 'plan_test', 'INR', 100000, $3, $4, $5)`,
        [id, `sub_cols_${n}`, state, paidUntil, createdAt],
      );
    await subscribe(1, 'created', null, '2026-01-01T00:00:00Z');
    expect(await plan()).toEqual({ plan_view: null, plan_covered_until: null });
    await t.deps.database.query(`update maintenance_subscriptions set state = 'active', paid_until = '2026-03-01T00:00:00Z' where provider_subscription_id = 'sub_cols_1'`);
    expect((await plan()).plan_view).toMatchObject({ state: 'active', startsAt: null });
    expect((await plan()).plan_covered_until?.toISOString()).toBe('2026-03-01T00:00:00.000Z');
    // A newer subscription that is only created hides the plan; once past created, the latest end of all counts.
    await t.deps.database.query(`update maintenance_subscriptions set state = 'cancelled' where provider_subscription_id = 'sub_cols_1'`);
    await subscribe(2, 'created', null, '2026-02-01T00:00:00Z');
    expect(await plan()).toEqual({ plan_view: null, plan_covered_until: null });
    await t.deps.database.query(`update maintenance_subscriptions set state = 'active', paid_until = '2026-02-15T00:00:00Z' where provider_subscription_id = 'sub_cols_2'`);
    expect((await plan()).plan_view).toMatchObject({ state: 'active' });
    expect((await plan()).plan_covered_until?.toISOString()).toBe('2026-03-01T00:00:00.000Z');
  });

  it('an order goes with its stages and notices (the cascade is not stopped by the triggers)', async () => {
    const who = await loginAs(t, 'cascade-log@example.com');
    const publicId = await payInstallment(t, who, { kind: 'advance' });
    const { id } = await orderRow(publicId);
    await addNotice(t.deps.db, { orderId: id, recipient: 'customer', kind: 'stage_completed', refId: crypto.randomUUID(), summary: 'Stage done', at: new Date() });
    await t.deps.database.query('delete from orders where id = $1', [id]);
    expect(await t.deps.database.query('select 1 from order_stages where order_id = $1', [id])).toEqual([]);
  });
});
