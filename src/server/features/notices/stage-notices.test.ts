import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asc, eq } from 'drizzle-orm';
import { buildTestApp, loginAs, type TestApp } from '../../../../tests/helpers/test-app.ts';
import { payInstallment } from '../../../../tests/helpers/test-checkout.ts';
import { mailOutbox } from '../../db/schema/platform.ts';
import { completeNextStage } from '../tracker/complete-next-stage.ts';
import { runJobs } from '../jobs/run-jobs.ts';
import { NOTICE_TEMPLATE } from './send-notices.ts';

// Stage completions join the one notice mechanism (decision 155, docs/decisions/200-durable-reactions.md):
// the founder completing stages 3–13 in a row sends the customer ONE mail, none if the order page
// showed them first; payment receipts and the delivery mail (with the website's link) go at once.

const DELAY_S = 300;
const afterDelay = () => new Date(Date.now() + (DELAY_S + 5) * 1000);

describe('stage notices', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ ORDER_NOTIFY_DELAY_SECONDS: String(DELAY_S) });
  }, 180_000);
  afterAll(async () => t?.close());

  const mailsTo = (to: string) =>
    t.deps.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, to)).orderBy(asc(mailOutbox.createdAt));
  /** The mails to `to` queued since `mark()` was called. */
  const mark = async (to: string) => {
    const before = new Set((await mailsTo(to)).map((m) => m.id));
    return async () => (await mailsTo(to)).filter((m) => !before.has(m.id));
  };

  /** A customer who paid both installments, with stage 2 done: nothing else will mail them. */
  async function paidOrder(email: string) {
    const who = await loginAs(t, email);
    const orderId = await payInstallment(t, who, { kind: 'advance' });
    await payInstallment(t, who, { kind: 'remaining', orderId });
    await completeNextStage(t.deps, orderId, {});
    await runJobs(t.deps, afterDelay());
    return { who, orderId };
  }

  it('completing stages 3–13 quickly sends one mail that lists them all', async () => {
    const { who, orderId } = await paidOrder('batched-stages@example.com');
    const since = await mark(who.user.email);
    for (let stage = 3; stage <= 13; stage++) await completeNextStage(t.deps, orderId, { note: `Stage ${stage} note` });
    // Nothing is mailed while the founder works…
    await runJobs(t.deps);
    expect(await since()).toEqual([]);
    // …and one mail once the batch is due, however many passes run.
    await Promise.all([runJobs(t.deps, afterDelay()), runJobs(t.deps, afterDelay())]);
    await runJobs(t.deps, afterDelay());
    const mails = await since();
    expect(mails.map((m) => m.template)).toEqual([NOTICE_TEMPLATE]);
    expect(mails[0]!.textBody).toContain('UI Started completed (stage 3 of 15)');
    expect(mails[0]!.textBody).toContain('Launch Readiness completed (stage 13 of 15)');
    // The notes are read in the app, not in a mailbox.
    expect(mails[0]!.textBody).not.toContain('Stage 13 note');
  });

  it('sends no stage mail when the customer saw the stages in the app first', async () => {
    const { who, orderId } = await paidOrder('saw-the-stages@example.com');
    const since = await mark(who.user.email);
    for (let stage = 3; stage <= 6; stage++) await completeNextStage(t.deps, orderId, {});
    expect((await t.app.inject({ method: 'GET', url: `/api/v1/status/getStatus/order/${orderId}`, headers: who.headers })).statusCode).toBe(
      200,
    );
    await runJobs(t.deps, afterDelay());
    expect(await since()).toEqual([]);
  });

  it('a stage taken back before the batch left is not mailed', async () => {
    const { who, orderId } = await paidOrder('taken-back@example.com');
    const since = await mark(who.user.email);
    await completeNextStage(t.deps, orderId, {});
    const admin = await loginAs(t, 'founder-stages@example.com', 'admin');
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: `/api/v1/admin/orders/${orderId}/stages/undo`,
          headers: admin.headers,
          payload: { reason: 'Too early' },
        })
      ).statusCode,
    ).toBe(200);
    await runJobs(t.deps, afterDelay());
    expect(await since()).toEqual([]);
  });

  it('the delivery mail goes at once and carries the website link', async () => {
    const { who, orderId } = await paidOrder('delivered-now@example.com');
    for (let stage = 3; stage <= 13; stage++) await completeNextStage(t.deps, orderId, {});
    const since = await mark(who.user.email);
    await completeNextStage(t.deps, orderId, { deliveryUrl: 'https://delivered.example.com/' });
    // In the outbox with the delivery's commit — no job pass needed.
    const mails = await since();
    expect(mails.map((m) => m.template)).toEqual(['order-delivered']);
    expect(mails[0]!.textBody).toContain('https://delivered.example.com/');
    expect(mails[0]!.htmlBody).toContain('href="https://delivered.example.com/"');
  });
});
