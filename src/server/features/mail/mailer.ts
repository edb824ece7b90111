import type { FastifyBaseLogger } from 'fastify';
import { mailOutbox } from '../../db/schema/platform.ts';
import type { Database } from '../../db/client.ts';
import type { MailAttachment, MailTransport } from '../../integrations/mail/transport.ts';
import type { RenderedEmail } from './render-email.ts';
import { isDeletedEmail } from '../../../domain/deleted-account.ts';

const MAX_ATTEMPTS = 8;
const POLL_MS = 2000;
// Claimed rows are pushed into the future so that another instance does not send them too;
// if this one dies mid-send the row becomes due again after the lease.
const LEASE = "interval '2 minutes'";

export interface Mailer {
  /** Records the message in the outbox; the worker delivers it (with retries). */
  enqueue(to: string, template: string, mail: RenderedEmail, attachments?: MailAttachment[]): Promise<void>;
  /** Sends everything due now; resolves when done. Used by the worker loop and by tests. */
  drain(): Promise<number>;
  stop(): Promise<void>;
  readonly transportName: MailTransport['name'];
}

/** Attachments (e.g. an invoice PDF) travel through the outbox as base64 in a jsonb column. */
export interface StoredAttachment {
  filename: string;
  contentType: string;
  base64: string;
}
export const storeAttachment = (a: MailAttachment): StoredAttachment => ({ filename: a.filename, contentType: a.contentType, base64: a.content.toString('base64') });

export function createMailer(opts: {
  database: Database;
  transport: MailTransport;
  from: string;
  log: FastifyBaseLogger;
  poll?: boolean;
}): Mailer {
  const { database, transport, log } = opts;
  let stopped = false;
  let running: Promise<number> | null = null;

  const backoffSeconds = (attempts: number) => Math.min(3600, 5 * 2 ** attempts);

  async function sendDue(): Promise<number> {
    const due = await database.query<{
      id: string;
      to_address: string;
      subject: string;
      text_body: string;
      html_body: string;
      attempts: number;
      attachments: StoredAttachment[] | null;
    }>(
      `update mail_outbox set next_attempt_at = now() + ${LEASE}
         where id in (select id from mail_outbox where state = 'pending' and next_attempt_at <= now()
                      order by next_attempt_at limit 20 for update skip locked)
       returning id, to_address, subject, text_body, html_body, attempts, attachments`,
    );
    for (const m of due) {
      try {
        const attachments = m.attachments?.map((a) => ({ filename: a.filename, contentType: a.contentType, content: Buffer.from(a.base64, 'base64') }));
        await transport.send({ from: opts.from, to: m.to_address, subject: m.subject, text: m.text_body, html: m.html_body, ...(attachments ? { attachments } : {}) });
        await database.query(
          `update mail_outbox set state = 'sent', sent_at = now(), transport = $2, attempts = attempts + 1, last_error = null where id = $1`,
          [m.id, transport.name],
        );
      } catch (err) {
        const attempts = m.attempts + 1;
        const message = err instanceof Error ? err.message.slice(0, 500) : 'send failed';
        log.warn({ mailId: m.id, attempts }, `mail delivery failed: ${message}`);
        await database.query(
          `update mail_outbox set attempts = $2, last_error = $3, state = $4,
             next_attempt_at = now() + make_interval(secs => $5) where id = $1`,
          [m.id, attempts, message, attempts >= MAX_ATTEMPTS ? 'failed' : 'pending', backoffSeconds(attempts)],
        );
      }
    }
    return due.length;
  }

  // A mail queued while a pass is running must not wait for the next poll: callers that arrive
  // during a pass get a second pass chained after it, which sees their row.
  let queued: Promise<number> | null = null;
  function drain(): Promise<number> {
    if (stopped) return Promise.resolve(0);
    if (running) {
      queued ??= running
        .catch(() => 0)
        .then(() => {
          queued = null;
          return drain();
        });
      return queued;
    }
    running = sendDue().finally(() => {
      running = null;
    });
    return running;
  }

  const timer = opts.poll === false ? undefined : setInterval(() => void drain().catch((err) => log.error({ err }, 'mail worker')), POLL_MS);
  timer?.unref();

  return {
    transportName: transport.name,
    async enqueue(to, template, mail, attachments) {
      // A deleted account's address (decision 192) is undeliverable by design: nothing is queued for it.
      if (isDeletedEmail(to)) return;
      await database.db.insert(mailOutbox).values({
        toAddress: to.toLowerCase(),
        template,
        subject: mail.subject,
        textBody: mail.text,
        htmlBody: mail.html,
        attachments: attachments?.length ? attachments.map(storeAttachment) : null,
      });
      if (!stopped) setImmediate(() => void drain().catch((err) => log.error({ err }, 'mail worker')));
    },
    drain,
    // Shutdown drains the worker: the pass under way finishes, then (for the real worker) one
    // last pass sends what requests answered meanwhile queued. A mail whose send is cut short
    // stays pending in the outbox and becomes due again after its lease — never lost.
    async stop() {
      if (stopped) return;
      stopped = true;
      if (timer) clearInterval(timer);
      await running?.catch(() => {});
      if (timer) await sendDue().catch((err) => log.warn({ err }, 'mail worker: last pass before shutdown failed'));
      transport.close();
    },
  };
}
