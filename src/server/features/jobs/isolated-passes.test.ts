import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, loginAs, type TestApp } from '../../../../tests/helpers/test-app.ts';
import { runJobs, type JobsResult } from './run-jobs.ts';
import { PASS_ROW_MAX_ATTEMPTS, type RowPass } from '../../lib/pass-rows.ts';

// Isolated background work (docs/decisions/339-isolated-job-passes.md). In turn, each scheduled pass
// is given a row that always throws (a database trigger raises on it: a real failure of the row's
// own statements, no stand-in of our code). On the same tick every other pass still does its work,
// the poisoned pass still does its good row, and after PASS_ROW_MAX_ATTEMPTS ticks (the clock moved
// past each backoff) the poisoned row is `failed`, listed on the overview with a retry. A pass that
// throws as a whole (the drafts' one statement) is logged and the passes after it run all the same.

const HOUR = 3600_000;
const DAY = 24 * HOUR;

/** Work for every row pass at the clock `at`; answers the row of each that the poison may name. */
async function seedWork(t: TestApp, at: Date) {
  const q = (text: string, params: unknown[] = []) => t.deps.database.query<{ id: string }>(text, params);
  const user = async (deletedAt?: Date) => {
    const [u] = await q(`insert into users (email, deleted_at) values ($1, $2) returning id`, [
      `pass-${randomBytes(5).toString('hex')}@example.com`,
      deletedAt?.toISOString() ?? null,
    ]);
    return u!.id;
  };
  const order = async (userId: string, state: string, createdAt: Date, advancePaid: boolean) => {
    const publicId = `ORD-P${randomBytes(4).toString('hex').toUpperCase()}`;
    const [o] = await q(
      `insert into orders (public_id, user_id, plan_id, currency, list_price, price, fee, total, state, created_at)
       values ($1, $2, 'website-standard', 'USD', 99900, 89900, 1798, 91698, $3, $4) returning id`,
      [publicId, userId, state, createdAt.toISOString()],
    );
    await q(
      `insert into installments (order_id, kind, amount, currency, state, paid_at) values ($1, 'advance', 18339, 'USD', $2, ` +
        `$3), ($1, 'remaining', 73359, 'USD', 'pending', null)`,
      [o!.id, advancePaid ? 'paid' : 'pending', advancePaid ? createdAt.toISOString() : null],
    );
    return { id: o!.id, publicId };
  };
  const long = new Date(at.getTime() - 40 * DAY);

  const customer = await user();
  const working = await order(customer, 'in_progress', long, true);
  const [reminder] = await q(`insert into payment_reminders (order_id, step, kind, due_at) values ($1, 1, 'due', $2) returning id`, [
    working.id,
    long.toISOString(),
  ]);
  await q(
    `insert into notices (order_id, recipient, kind, ref_id, summary, created_at) values ($1, 'customer', 'message', $2, 'A message', $3)`,
    [working.id, randomUUID(), long.toISOString()],
  );
  const [request] = await q(
    `insert into support_requests (order_id, title, description, category, state, resolved_at) values ($1, 'Fix it', ` +
      `'Please', 'bug', 'resolved', $2) returning id`,
    [working.id, new Date(at.getTime() - 10 * DAY).toISOString()],
  );
  // A request waiting for the agency's first answer for 3 days: past its target, to be announced.
  const [overdue] = await q(
    `insert into support_requests (order_id, title, description, category, state, waiting_since) values ($1, 'Still broken', ` +
      `'Please', 'bug', 'open', $2) returning id`,
    [working.id, new Date(at.getTime() - 3 * DAY).toISOString()],
  );
  // An advance checkout left 2 days ago, and one older than DRAFT_RETENTION_DAYS (the drafts' pass deletes it).
  const abandoned = await order(await user(), 'awaiting_advance', new Date(at.getTime() - 2 * DAY), false);
  const stale = await order(await user(), 'awaiting_advance', long, false);
  // Delivered SUPPORT_DAYS - 10 days ago: the plan offer is due.
  const delivered = await order(await user(), 'delivered', long, true);
  await q(`update installments set state = 'paid', paid_at = $2 where order_id = $1`, [delivered.id, long.toISOString()]);
  const completedAt = new Date(at.getTime() - (t.deps.config.SUPPORT_DAYS - 10) * DAY).toISOString();
  await q(`insert into order_stages (order_id, stage, completed_at) select $1, s, $2 from generate_series(1, 15) s`, [
    delivered.id,
    completedAt,
  ]);
  // A deleted account's order past INVOICE_RETENTION_YEARS, with the owner's note still kept.
  const gone = await order(
    await user(new Date(at.getTime() - (t.deps.config.INVOICE_RETENTION_YEARS + 1) * 365 * DAY)),
    'delivered',
    long,
    true,
  );
  await q(`insert into admin_order_notes (order_id, note) values ($1, 'Kept until the retention ran out')`, [gone.id]);
  return {
    reminder: reminder!.id,
    notices: working.id,
    request: request!.id,
    overdue: overdue!.id,
    abandoned: abandoned.publicId,
    stale: stale.id,
    delivered: delivered.id,
    gone: gone.id,
  };
}

type Seeded = Awaited<ReturnType<typeof seedWork>>;

/** Per row pass: the trigger that makes its row throw, and the stored key of that row. */
const POISONS: Record<Exclude<RowPass, 'object-sweep'>, (s: Seeded) => { table: string; event: string; when: string; key: string }> = {
  reminders: (s) => ({ table: 'payment_reminders', event: 'update', when: `old.id = '${s.reminder}'`, key: s.reminder }),
  notices: (s) => ({ table: 'notices', event: 'update', when: `old.order_id = '${s.notices}'`, key: `${s.notices}:customer` }),
  'support-closing': (s) => ({ table: 'support_requests', event: 'update', when: `old.id = '${s.request}'`, key: s.request }),
  'support-overdue': (s) => ({ table: 'support_requests', event: 'update', when: `old.id = '${s.overdue}'`, key: s.overdue }),
  'checkout-follow-ups': (s) => ({ table: 'checkout_followups', event: 'insert', when: `new.order_public_id = '${s.abandoned}'`, key: '' }),
  'plan-offers': (s) => ({ table: 'support_offers', event: 'insert', when: `new.order_id = '${s.delivered}'`, key: s.delivered }),
  'retention-purge': (s) => ({ table: 'admin_order_notes', event: 'delete', when: `old.order_id = '${s.gone}'`, key: s.gone }),
};

/** What each pass did on a tick, for the passes the poison is not in. */
function didWork(r: JobsResult) {
  return {
    reminders: (r.reminders?.sent ?? 0) + (r.reminders?.cancelled ?? 0) > 0,
    notices: (r.notices?.mails ?? 0) > 0,
    'support-closing': (r.supportClosed ?? 0) > 0,
    'support-overdue': (r.supportOverdue ?? 0) > 0,
    'checkout-follow-ups': (r.followUps ?? 0) > 0,
    'plan-offers': (r.planOffers ?? 0) > 0,
    'retention-purge': (r.retentionPurged ?? 0) > 0,
    drafts: (r.draftsDeleted ?? 0) > 0,
  };
}

describe('isolated job passes', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
    await t.deps.database.query(
      `create function test_poison() returns trigger language plpgsql as $$ begin raise exception 'poisoned row'; end $$`,
    );
  }, 180_000);
  afterAll(async () => t?.close());

  const poison = async (name: string, p: { table: string; event: string; when: string }) => {
    await t.deps.database.query(
      `create trigger ${name} before ${p.event} on ${p.table} for each row when (${p.when}) execute function test_poison()`,
    );
  };

  let round = 0;
  for (const pass of Object.keys(POISONS) as (keyof typeof POISONS)[]) {
    it(`a row of "${pass}" that always throws ends failed after its tries; every other pass works on the same tick`, async () => {
      round++;
      const start = new Date(Date.now() + round * 2 * DAY);
      // Two rows for the poisoned pass: the poisoned one and one behind it that must still go.
      const seeded = await seedWork(t, start);
      await seedWork(t, start);
      const p = POISONS[pass](seeded);
      await poison(`poison_${round}`, p);
      const key =
        pass === 'checkout-follow-ups'
          ? (await t.deps.database.query<{ id: string }>(`select id from orders where public_id = $1`, [seeded.abandoned]))[0]!.id
          : p.key;

      const first = await runJobs(t.deps, start);
      expect(first.errors).toEqual({});
      expect(didWork(first)).toEqual({
        reminders: true,
        notices: true,
        'support-closing': true,
        'support-overdue': true,
        'checkout-follow-ups': true,
        'plan-offers': true,
        'retention-purge': true,
        drafts: true,
      });
      const parked = async () =>
        (
          await t.deps.database.query<{ attempts: number; state: string; last_error: string }>(
            `select attempts, state, last_error from pass_row_failures where pass = $1 and row_key = $2`,
            [pass, key],
          )
        )[0];
      expect(await parked()).toMatchObject({ attempts: 1, state: 'retrying' });
      // Not tried again before its backoff, then again after each.
      await runJobs(t.deps, new Date(start.getTime() + 30_000));
      expect((await parked())!.attempts).toBe(1);
      let clock = start.getTime();
      for (let i = 1; i < PASS_ROW_MAX_ATTEMPTS; i++) {
        clock += 2 * HOUR + 1000;
        await runJobs(t.deps, new Date(clock));
      }
      expect(await parked()).toMatchObject({ attempts: PASS_ROW_MAX_ATTEMPTS, state: 'failed' });
      expect((await parked())!.last_error).toContain('poisoned row');

      // On the overview, with a retry that makes it due again (and it fails again while poisoned).
      const owner = await loginAs(t, `passes-owner-${round}@example.com`, 'admin');
      const overview = await t.app.inject({ method: 'GET', url: '/api/v1/admin/overview', headers: owner.headers });
      const listed = (overview.json().failedPassRows as { id: string; pass: string; rowKey: string }[]).find(
        (r) => r.pass === pass && r.rowKey === key,
      );
      expect(listed).toBeDefined();
      const retry = await t.app.inject({ method: 'POST', url: `/api/v1/admin/pass-rows/${listed!.id}/retry`, headers: owner.headers });
      expect(retry.statusCode, retry.body).toBe(204);
      await t.deps.database.query(`drop trigger poison_${round} on ${p.table}`);
      await runJobs(t.deps, new Date(clock + HOUR));
      expect(await parked()).toBeUndefined();
    });
  }

  it('a pass that throws as a whole is named in errors and the passes after it still run', async () => {
    const start = new Date(Date.now() + 40 * DAY);
    const seeded = await seedWork(t, start);
    await poison('poison_drafts', { table: 'orders', event: 'delete', when: `old.id = '${seeded.stale}'` });
    const result = await runJobs(t.deps, start);
    expect(result.errors.draftsDeleted).toContain('poisoned row');
    expect(didWork(result)).toMatchObject({ notices: true, 'support-closing': true, 'plan-offers': true, 'retention-purge': true });
    await t.deps.database.query(`drop trigger poison_drafts on orders`);
    expect((await runJobs(t.deps, start)).draftsDeleted).toBeGreaterThan(0);
  });

  it('the retry answers 404 for a row that is not failed, and staff cannot retry', async () => {
    const owner = await loginAs(t, 'passes-owner-x@example.com', 'admin');
    const missing = await t.app.inject({ method: 'POST', url: `/api/v1/admin/pass-rows/${randomUUID()}/retry`, headers: owner.headers });
    expect(missing.statusCode).toBe(404);
    const staff = await loginAs(t, 'passes-staff@example.com', 'staff');
    const denied = await t.app.inject({ method: 'POST', url: `/api/v1/admin/pass-rows/${randomUUID()}/retry`, headers: staff.headers });
    expect(denied.statusCode).toBe(403);
    const bad = await t.app.inject({ method: 'POST', url: `/api/v1/admin/pass-rows/nope/retry`, headers: owner.headers });
    expect(bad.statusCode).toBe(400);
  });
});
