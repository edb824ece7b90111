import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pino from 'pino';
import type { FastifyBaseLogger } from 'fastify';
import { openTestDatabase } from '../../../../tests/helpers/test-app.ts';
import type { Database } from '../../db/client.ts';
import type { MailTransport, OutgoingMail } from '../../integrations/mail/transport.ts';
import { createMailer } from './mailer.ts';

// `send: false` (docs/decisions/352-ci-time.md): a process that only queues mail. Its wake after a
// queued mail must not run a pass, or it would lease other processes' due rows for the mailer's lease.

const log = pino({ level: 'silent' }) as unknown as FastifyBaseLogger;
const mail = { subject: 'Hello', text: 'Hi', html: '<p>Hi</p>' };

function recording(): MailTransport & { sent: OutgoingMail[] } {
  const sent: OutgoingMail[] = [];
  return { name: 'dev', sent, send: async (m) => void sent.push(m), close: () => {} };
}

describe('the mailer that only queues', () => {
  let database: Database;
  let drop: () => Promise<void>;
  beforeAll(async () => ({ database, drop } = await openTestDatabase()), 60_000);
  afterAll(async () => {
    await database.close();
    await drop();
  });

  it('records mail, sends none and leases no row, even on a wake; a sending mailer then sends it once', async () => {
    const quiet = recording();
    const queuer = createMailer({ database, transport: quiet, from: 'a@example.com', log, poll: false, send: false });
    await queuer.enqueue(database.db, 'someone@example.com', 'test', mail);
    await new Promise((r) => setTimeout(r, 50)); // the wake's setImmediate has run
    expect(await queuer.drain()).toBe(0);
    expect(quiet.sent).toEqual([]);
    const [row] = await database.query<{ state: string; due: boolean }>(
      `select state, next_attempt_at <= now() as due from mail_outbox where to_address = 'someone@example.com'`,
    );
    expect(row).toEqual({ state: 'pending', due: true });

    const loud = recording();
    const sender = createMailer({ database, transport: loud, from: 'a@example.com', log, poll: false });
    expect(await sender.drain()).toBe(1);
    expect(loud.sent.map((m) => m.to)).toEqual(['someone@example.com']);
    await Promise.all([queuer.stop(), sender.stop()]);
  });
});
