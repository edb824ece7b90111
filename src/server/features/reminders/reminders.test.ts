import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, asc, eq, sql } from 'drizzle-orm';
import { buildTestApp, loginAs, type TestApp } from '../../../../tests/helpers/test-app.ts';
import { payInstallment } from '../../../../tests/helpers/test-checkout.ts';
import type { BuiltApp } from '../../app.ts';
import { instancesOnPostgres } from '../../../../tests/helpers/instances.ts';
import { loadConfig } from '../../config.ts';
import { installments, orders } from '../../db/schema/orders.ts';
import { mailOutbox } from '../../db/schema/platform.ts';
import { paymentReminders } from '../../db/schema/reminders.ts';
import { jobs } from '../../db/schema/jobs.ts';
import { completeNextStage } from '../tracker/complete-next-stage.ts';
import { runJobs } from '../jobs/run-jobs.ts';
import { runDueReminders } from './run-reminders.ts';

const DAY = 24 * 60 * 60 * 1000;
const later = (days: number, from = new Date()) => new Date(from.getTime() + days * DAY + 1000);

/**
 * A paid advance brought to stage 13 (Launch Readiness): the reminders are planned, and a stored
 * job sends the "now due" mail once a job worker takes it — not the request (here: at once).
 */
async function toLaunchReadiness(t: BuiltApp, email: string) {
  const who = await loginAs(t, email);
  const orderId = await payInstallment(t, who, { kind: 'advance' });
  for (let stage = 2; stage <= 13; stage++) await completeNextStage(t.deps, orderId, {});
  await runStoredJobs(t);
  return { who, orderId };
}

/** What a job worker does right after the commit that stored a job (jobs/job-queue.ts). */
async function runStoredJobs(t: BuiltApp) {
  const pending = await t.deps.db.select().from(jobs).where(eq(jobs.state, 'pending'));
  expect(pending.map((j) => j.kind)).toContain('reminders.run');
  expect(await t.deps.jobs.runDue()).toMatchObject({ failed: 0, retried: 0 });
}

const mailsTo = async (t: BuiltApp, to: string, template?: string) =>
  t.deps.db
    .select({ template: mailOutbox.template, subject: mailOutbox.subject, text: mailOutbox.textBody })
    .from(mailOutbox)
    .where(template ? and(eq(mailOutbox.toAddress, to), eq(mailOutbox.template, template)) : eq(mailOutbox.toAddress, to))
    .orderBy(asc(mailOutbox.createdAt));
const reminderMails = async (t: BuiltApp, to: string) => (await mailsTo(t, to)).filter((m) => m.template.startsWith('remaining-'));

describe('remaining-payment reminders', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ ADMIN_EMAILS: 'founder@example.com', REMINDER_DAYS: '3,7' });
  }, 180_000);
  afterAll(async () => t?.close());

  it('e-mails "remaining due" on stage 13, reminds after 3 and 7 days, then tells the founder — each once', async () => {
    const { who, orderId } = await toLaunchReadiness(t, 'remind-me@example.com');
    const start = new Date();
    const due = await reminderMails(t, who.user.email);
    expect(due.map((m) => m.template)).toEqual(['remaining-due']);
    expect(due[0]!.text).toContain(`/status/${orderId}`);

    await runJobs(t.deps, later(2.9, start));
    expect(await reminderMails(t, who.user.email)).toHaveLength(1);
    await runJobs(t.deps, later(3, start));
    await runJobs(t.deps, later(3, start));
    expect((await reminderMails(t, who.user.email)).map((m) => m.template)).toEqual(['remaining-due', 'remaining-reminder']);
    expect(await mailsTo(t, 'founder@example.com', 'reminder-founder')).toHaveLength(0);
    // Three "instances" run at once: still one mail per job.
    await Promise.all([runJobs(t.deps, later(7, start)), runJobs(t.deps, later(7, start)), runJobs(t.deps, later(7, start))]);
    expect((await reminderMails(t, who.user.email)).map((m) => m.template)).toEqual([
      'remaining-due',
      'remaining-reminder',
      'remaining-reminder',
    ]);
    const owner = await mailsTo(t, 'founder@example.com', 'reminder-founder');
    expect(owner).toHaveLength(1);
    expect(owner[0]!.subject).toContain(orderId);
    await runJobs(t.deps, later(30, start));
    expect(await reminderMails(t, who.user.email)).toHaveLength(3);

    // The back office shows what was sent and when; customers cannot see it.
    const admin = await loginAs(t, 'founder@example.com', 'admin');
    const r = await t.app.inject({ method: 'GET', url: `/api/v1/admin/orders/${orderId}/reminders`, headers: admin.headers });
    expect(r.json()).toMatchObject({ paused: false });
    expect(r.json().reminders.map((x: { kind: string; state: string }) => `${x.kind}:${x.state}`)).toEqual([
      'due:sent',
      'reminder:sent',
      'reminder:sent',
      'founder:sent',
    ]);
    expect(r.json().reminders[1].sentAt).toBe(later(3, start).toISOString());
    expect((await t.app.inject({ method: 'GET', url: `/api/v1/admin/orders/${orderId}/reminders`, headers: who.headers })).statusCode).toBe(
      403,
    );
  });

  it('stops the moment the remaining payment is captured', async () => {
    const { who, orderId } = await toLaunchReadiness(t, 'pays-on-time@example.com');
    await payInstallment(t, who, { kind: 'remaining', orderId });
    await runJobs(t.deps, later(10));
    expect((await reminderMails(t, who.user.email)).map((m) => m.template)).toEqual(['remaining-due']);
    const jobs = await t.deps.db
      .select()
      .from(paymentReminders)
      .innerJoin(orders, eq(orders.id, paymentReminders.orderId))
      .where(eq(orders.publicId, orderId));
    expect(jobs.map((j) => `${j.payment_reminders.state}:${j.payment_reminders.reason}`)).toEqual([
      'sent:null',
      'cancelled:paid',
      'cancelled:paid',
      'cancelled:paid',
    ]);
  });

  it('sends nothing for a job whose order was paid a second before it ran', async () => {
    const { who, orderId } = await toLaunchReadiness(t, 'paid-a-second-ago@example.com');
    // The capture committed without reaching the jobs (e.g. settled by another code path):
    // the job itself checks, under a share lock, before it sends.
    const [o] = await t.deps.db.select({ id: orders.id }).from(orders).where(eq(orders.publicId, orderId));
    await t.deps.db
      .update(installments)
      .set({ state: 'paid', paidAt: new Date() })
      .where(and(eq(installments.orderId, o!.id), eq(installments.kind, 'remaining')));
    const result = await runDueReminders(t.deps, later(3));
    expect(result.sent).toBe(0);
    expect(await reminderMails(t, who.user.email)).toHaveLength(1);
  });

  it('loses and duplicates nothing when the run dies in the middle', async () => {
    const { who } = await toLaunchReadiness(t, 'crash-run@example.com');
    // The outbox refuses writes: the job fails after it was claimed, as a killed process would. Its
    // transaction rolls back and the job is parked for its backoff (lib/pass-rows.ts).
    await t.deps.database.execScript(`
      create function fail_outbox() returns trigger language plpgsql as $$ begin raise exception 'killed mid-run'; end $$;
      create trigger fail_outbox before insert on mail_outbox for each row execute function fail_outbox();`);
    expect(await runDueReminders(t.deps, later(3))).toEqual({ sent: 0, cancelled: 0 });
    await t.deps.database.execScript('drop trigger fail_outbox on mail_outbox; drop function fail_outbox();');
    expect(await reminderMails(t, who.user.email)).toHaveLength(1);
    // Not before its backoff; then once, however often the pass runs.
    await runDueReminders(t.deps, later(3));
    expect(await reminderMails(t, who.user.email)).toHaveLength(1);
    const afterBackoff = new Date(later(3).getTime() + 3600_000);
    await runDueReminders(t.deps, afterBackoff);
    await runDueReminders(t.deps, afterBackoff);
    expect((await reminderMails(t, who.user.email)).map((m) => m.template)).toEqual(['remaining-due', 'remaining-reminder']);
  });

  it('waits while the founder pauses, and after resuming sends only the latest reminder', async () => {
    const { who, orderId } = await toLaunchReadiness(t, 'paused@example.com');
    const admin = await loginAs(t, 'founder@example.com', 'admin');
    const pause = (paused: boolean) =>
      t.app.inject({ method: 'PUT', url: `/api/v1/admin/orders/${orderId}/reminders/pause`, headers: admin.headers, payload: { paused } });
    expect((await pause(true)).json()).toMatchObject({ paused: true });
    await runJobs(t.deps, later(8));
    expect(await reminderMails(t, who.user.email)).toHaveLength(1);
    expect((await pause(false)).json()).toMatchObject({ paused: false });
    await runJobs(t.deps, later(8));
    expect((await reminderMails(t, who.user.email)).map((m) => m.template)).toEqual(['remaining-due', 'remaining-reminder']);
    const r = (await t.app.inject({ method: 'GET', url: `/api/v1/admin/orders/${orderId}/reminders`, headers: admin.headers })).json();
    expect(r.reminders.map((x: { state: string }) => x.state)).toEqual(['sent', 'skipped', 'sent', 'sent']);
    expect(
      (
        await t.app.inject({
          method: 'PUT',
          url: `/api/v1/admin/orders/${orderId}/reminders/pause`,
          headers: admin.headers,
          payload: { paused: 'yes' },
        })
      ).statusCode,
    ).toBe(400);
    expect(
      (
        await t.app.inject({
          method: 'PUT',
          url: `/api/v1/admin/orders/ORDNOPE/reminders/pause`,
          headers: admin.headers,
          payload: { paused: true },
        })
      ).statusCode,
    ).toBe(404);
  });

  it('cancels pending reminders when stage 13 is undone, and plans them anew when it is completed again', async () => {
    const { who, orderId } = await toLaunchReadiness(t, 'undo-launch@example.com');
    const admin = await loginAs(t, 'founder@example.com', 'admin');
    const undone = await t.app.inject({
      method: 'POST',
      url: `/api/v1/admin/orders/${orderId}/stages/undo`,
      headers: admin.headers,
      payload: { reason: 'Not ready after all' },
    });
    expect(undone.statusCode, undone.body).toBe(200);
    const list = async () =>
      (await t.app.inject({ method: 'GET', url: `/api/v1/admin/orders/${orderId}/reminders`, headers: admin.headers })).json()
        .reminders as {
        round: number;
        kind: string;
        state: string;
        reason: string | null;
        dueAt: string;
      }[];
    expect((await list()).map((r) => `${r.round}:${r.kind}:${r.state}:${r.reason}`)).toEqual([
      '1:due:sent:null',
      '1:reminder:cancelled:undone',
      '1:reminder:cancelled:undone',
      '1:founder:cancelled:undone',
    ]);
    // Nothing goes out while Launch Readiness is not done.
    await runJobs(t.deps, later(10));
    expect(await reminderMails(t, who.user.email)).toHaveLength(1);

    // Completed again: "due" again now, and reminders counted from this completion.
    const again = new Date();
    await completeNextStage(t.deps, orderId, {});
    expect(await reminderMails(t, who.user.email)).toHaveLength(1);
    await runStoredJobs(t);
    const mails = await reminderMails(t, who.user.email);
    expect(mails.map((m) => m.template)).toEqual(['remaining-due', 'remaining-due']);
    const round2 = (await list()).filter((r) => r.round === 2);
    expect(round2.map((r) => `${r.kind}:${r.state}`)).toEqual(['due:sent', 'reminder:pending', 'reminder:pending', 'founder:pending']);
    expect(Date.parse(round2[1]!.dueAt)).toBeGreaterThanOrEqual(again.getTime() + 3 * DAY - 1000);
    await runJobs(t.deps, later(3, again));
    expect((await reminderMails(t, who.user.email)).map((m) => m.template)).toEqual([
      'remaining-due',
      'remaining-due',
      'remaining-reminder',
    ]);
  });

  it('keeps a history of every pause and resume', async () => {
    const { orderId } = await toLaunchReadiness(t, 'pause-history@example.com');
    const admin = await loginAs(t, 'founder@example.com', 'admin');
    const pause = async (paused: boolean) =>
      (
        await t.app.inject({
          method: 'PUT',
          url: `/api/v1/admin/orders/${orderId}/reminders/pause`,
          headers: admin.headers,
          payload: { paused },
        })
      ).json();
    await pause(true);
    await pause(true); // a second click changes nothing
    await pause(false);
    const last = await pause(true);
    expect(last.paused).toBe(true);
    expect(last.pauses).toHaveLength(2);
    expect(last.pauses[0]).toMatchObject({ pausedBy: 'founder@example.com', resumedAt: expect.any(String) });
    expect(Date.parse(last.pauses[0].resumedAt)).toBeGreaterThanOrEqual(Date.parse(last.pauses[0].pausedAt));
    expect(last.pauses[1]).toMatchObject({ pausedBy: 'founder@example.com', resumedAt: null });
    const resumed = await pause(false);
    expect(resumed.pauses.map((p: { resumedAt: string | null }) => p.resumedAt !== null)).toEqual([true, true]);
  });

  it('refuses a malformed REMINDER_DAYS at start-up', () => {
    expect(() => loadConfig({ REMINDER_DAYS: '3,seven' })).toThrow(/REMINDER_DAYS/);
    expect(loadConfig({ REMINDER_DAYS: '7, 2' }).REMINDER_DAYS).toEqual([2, 7]);
  });
});

const baseUrl = process.env.TEST_DATABASE_URL;
describe.skipIf(!baseUrl)('reminders with two instances on one PostgreSQL', () => {
  const apps = instancesOnPostgres(2, { ADMIN_EMAILS: 'boss@example.com' });

  it('runs every job exactly once when both instances poll at once', async () => {
    const [a, b] = apps as [BuiltApp, BuiltApp];
    const emails: string[] = [];
    for (let i = 0; i < 5; i++) emails.push((await toLaunchReadiness(a, `pg-remind-${i}@example.com`)).who.user.email);
    const at = later(7);
    await Promise.all([runJobs(a.deps, at), runJobs(b.deps, at), runJobs(a.deps, at), runJobs(b.deps, at)]);
    for (const e of emails) expect((await reminderMails(a, e)).map((m) => m.template)).toEqual(['remaining-due', 'remaining-reminder']);
    const [f] = await a.deps.db
      .select({ n: sql<number>`count(*)::int` })
      .from(mailOutbox)
      .where(eq(mailOutbox.template, 'reminder-founder'));
    expect(f!.n).toBe(5);
  });
});
