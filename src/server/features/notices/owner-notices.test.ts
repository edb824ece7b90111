import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, asc, eq } from 'drizzle-orm';
import { buildTestApp, loginAs, type TestApp } from '../../../../tests/helpers/test-app.ts';
import { seedPaidOrder } from '../../../../tests/fixtures/paid-orders.ts';
import { fileForm } from '../../../../tests/helpers/multipart.ts';
import { PNG } from '../../../../tests/fixtures/file-bytes.ts';
import { mailOutbox } from '../../db/schema/platform.ts';
import { runJobs } from '../jobs/run-jobs.ts';
import { NOTICE_TEMPLATE } from './send-notices.ts';
import { startFakeSmtp, type FakeSmtp } from '../../../../tests/fakes/smtp.ts';

// The founder hears of a submitted brief and of the customer's files through the order's batched
// notice mail (docs/decisions/277-founder-notices-brief-and-files.md): one mail for both, none when
// the order page was opened in the back office first.

const DELAY_S = 300;
const OWNER = 'founder-notices@example.com';
const afterDelay = () => new Date(Date.now() + (DELAY_S + 5) * 1000);
const brief = {
  businessName: 'Lakeside Bakery',
  businessDescription: 'We bake bread.',
  pages: ['Home', 'Menu'],
  domain: 'has',
  contentReadiness: 'partly',
};

describe('founder notices of a brief and files', () => {
  let t: TestApp;
  let smtp: FakeSmtp;
  beforeAll(async () => {
    smtp = await startFakeSmtp();
    t = await buildTestApp({ ORDER_NOTIFY_DELAY_SECONDS: String(DELAY_S), ADMIN_EMAILS: OWNER, SMTP_URL: smtp.smtpUrl });
  }, 180_000);
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });
  /** What the SMTP server received for the founder about `orderId`, once the outbox is drained. */
  const delivered = async (orderId: string) => {
    await t.deps.mailer.drain();
    return smtp.messages.filter((m) => m.to.includes(OWNER) && m.subject.includes(orderId));
  };

  const noticeMails = () =>
    t.deps.db
      .select()
      .from(mailOutbox)
      .where(and(eq(mailOutbox.toAddress, OWNER), eq(mailOutbox.template, NOTICE_TEMPLATE)))
      .orderBy(asc(mailOutbox.createdAt));

  async function briefAndFile(email: string) {
    const { customer, orderId } = await seedPaidOrder(t, email);
    await runJobs(t.deps, afterDelay());
    const before = new Set((await noticeMails()).map((m) => m.id));
    const put = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/orders/${orderId}/brief`,
      headers: customer.headers,
      payload: { answers: brief, submit: true },
    });
    expect(put.statusCode, put.body).toBe(200);
    const form = fileForm('logo.png', PNG, 'image/png');
    const up = await t.app.inject({
      method: 'POST',
      url: `/api/v1/orders/${orderId}/files`,
      headers: { ...customer.headers, ...form.headers },
      payload: form.payload,
    });
    expect(up.statusCode, up.body).toBe(201);
    return { orderId, since: async () => (await noticeMails()).filter((m) => !before.has(m.id)) };
  }

  it('mails the founder once, listing the submitted brief and the new file', async () => {
    const { orderId, since } = await briefAndFile('brief-and-file@example.com');
    await runJobs(t.deps);
    expect(await since()).toEqual([]);
    await runJobs(t.deps, afterDelay());
    await runJobs(t.deps, afterDelay());
    const mails = await since();
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toContain(orderId);
    expect(mails[0]!.textBody).toContain('The customer submitted the brief');
    expect(mails[0]!.textBody).toContain('1 new file from the customer');
    // One mail on the wire too, through the SMTP server.
    const received = await delivered(orderId);
    expect(received).toHaveLength(1);
    expect(received[0]!.text).toContain('The customer submitted the brief');
    expect(received[0]!.text).toContain('1 new file from the customer');
  });

  it('mails nothing when the founder opened the order in the back office first', async () => {
    const { orderId, since } = await briefAndFile('seen-in-the-app@example.com');
    const owner = await loginAs(t, OWNER, 'admin');
    expect((await t.app.inject({ method: 'GET', url: `/api/v1/admin/orders/${orderId}`, headers: owner.headers })).statusCode).toBe(200);
    await runJobs(t.deps, afterDelay());
    expect(await since()).toEqual([]);
    expect(await delivered(orderId)).toEqual([]);
  });

  it('does not tell the agency of its own uploads', async () => {
    const { orderId } = await seedPaidOrder(t, 'agency-upload@example.com');
    const owner = await loginAs(t, OWNER, 'admin');
    const before = (await noticeMails()).length;
    const form = fileForm('mockup.png', PNG, 'image/png');
    const up = await t.app.inject({
      method: 'POST',
      url: `/api/v1/admin/orders/${orderId}/files`,
      headers: { ...owner.headers, ...form.headers },
      payload: form.payload,
    });
    expect(up.statusCode, up.body).toBe(201);
    await runJobs(t.deps, afterDelay());
    expect((await noticeMails()).length).toBe(before);
  });
});
