import type { FastifyBaseLogger } from 'fastify';
import { mailOutbox } from '../../db/schema/platform.ts';
import type { Database, Db, Tx } from '../../db/client.ts';
import type { MailAttachment, MailTransport } from '../../integrations/mail/transport.ts';
import type { RenderedEmail } from './render-email.ts';
import { isDeletedEmail } from '../../../domain/deleted-account.ts';

const MAX_ATTEMPTS = 8;
const POLL_MS = 2000;
// Claimed rows are pushed into the future so that another instance does not send them too;
// if this one dies mid-send the row becomes due again after the lease.
const LEASE = "interval '2 minutes'";

/**
 * A document the worker renders when it sends the mail (an invoice's PDF), named, not stored: the
 * request that queues the mail does not wait for a PDF, and the mail carries what the document
 * says when it leaves (docs/decisions/200-durable-reactions.md).
 */
export interface AttachmentRef {
  /** An invoice, or a monthly care report (docs/decisions/327-care-reports.md). */
  kind: 'invoice' | 'care-report';
  id: string;
}

/** Renders one named document for the worker; wired in app.ts (the mail feature knows no invoices). */
export type RenderAttachment = (ref: AttachmentRef) => Promise<MailAttachment>;

export interface Mailer {
  /**
   * Records the message in the outbox in `tx` — the transaction of the change the mail is about,
   * so the mail exists exactly when the change does — or in `deps.db` when there is no change to
   * join. The worker delivers it (with retries), rendering `attach` as it sends.
   */
  enqueue(tx: Db | Tx, to: string, template: string, mail: RenderedEmail, attach?: AttachmentRef[]): Promise<void>;
  /** Starts a pass soon (after a commit that queued mail); lossy by design: the poll catches what it misses. */
  wake(): void;
  /**
   * After a commit: a pass only when this process queued mail lately (in any transaction still open,
   * which may be the one that committed). Most transactions queue none (an order page read marking
   * notices read, docs/decisions/285-signed-in-read-path.md), and a pass is a locking UPDATE on the outbox.
   */
  wakeIfQueued(): void;
  /** Sends everything due now; resolves when done. Used by the worker loop and by tests. */
  drain(): Promise<number>;
  stop(): Promise<void>;
  readonly transportName: MailTransport['name'];
}

/** Attachments queued before migration 0880 travelled through the outbox as base64; still sent. */
export interface StoredAttachment {
  filename: string;
  contentType: string;
  base64: string;
}

export function createMailer(opts: {
  database: Database;
  transport: MailTransport;
  from: string;
  log: FastifyBaseLogger;
  poll?: boolean;
  /**
   * false: this process queues mail and never sends it, not even on a wake (a process the crash test
   * kills right after a commit: a pass of its own would lease other processes' rows for LEASE).
   */
  send?: boolean;
  renderAttachment?: RenderAttachment;
}): Mailer {
  const { database, transport, log } = opts;
  const sends = opts.send !== false;
  let stopped = false;
  let running: Promise<number> | null = null;

  const QUEUED_LATELY_MS = 60_000;
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
      renders: AttachmentRef[] | null;
    }>(
      `update mail_outbox set next_attempt_at = now() + ${LEASE}
         where id in (select id from mail_outbox where state = 'pending' and next_attempt_at <= now()
                      order by next_attempt_at limit 20 for update skip locked)
       returning id, to_address, subject, text_body, html_body, attempts, attachments, renders`,
    );
    for (const m of due) {
      try {
        const stored = (m.attachments ?? []).map((a) => ({
          filename: a.filename,
          contentType: a.contentType,
          content: Buffer.from(a.base64, 'base64'),
        }));
        // A document that cannot be rendered fails the attempt: the mail is retried, never sent without it.
        const rendered: MailAttachment[] = [];
        for (const ref of m.renders ?? []) {
          if (!opts.renderAttachment) throw new Error(`no renderer for a ${ref.kind} attachment`);
          rendered.push(await opts.renderAttachment(ref));
        }
        const all = [...stored, ...rendered];
        const attachments = all.length ? all : undefined;
        await transport.send({
          from: opts.from,
          to: m.to_address,
          subject: m.subject,
          text: m.text_body,
          html: m.html_body,
          ...(attachments ? { attachments } : {}),
        });
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
    if (stopped || !sends) return Promise.resolve(0);
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

  // When this process last queued a mail: a commit within QUEUED_LATELY_MS of it may be the one that
  // makes it visible. A longer transaction's mail waits for the poll (lossy by design, see wake).
  let lastQueuedAt = Number.NEGATIVE_INFINITY;
  function wake() {
    if (!stopped) setImmediate(() => void drain().catch((err) => log.error({ err }, 'mail worker')));
  }

  const timer =
    opts.poll === false || !sends ? undefined : setInterval(() => void drain().catch((err) => log.error({ err }, 'mail worker')), POLL_MS);
  timer?.unref();

  return {
    transportName: transport.name,
    async enqueue(tx, to, template, mail, attach) {
      // A deleted account's address (decision 192) is undeliverable by design: nothing is queued for it.
      if (isDeletedEmail(to)) return;
      await tx.insert(mailOutbox).values({
        toAddress: to.toLowerCase(),
        template,
        subject: mail.subject,
        textBody: mail.text,
        htmlBody: mail.html,
        renders: attach?.length ? attach : null,
      });
      // Outside a transaction the row is visible now; inside one, the commit wakes the worker
      // (domain-events' onCommit) and this early pass simply finds nothing yet.
      lastQueuedAt = Date.now();
      wake();
    },
    wake,
    wakeIfQueued() {
      if (Date.now() - lastQueuedAt < QUEUED_LATELY_MS) wake();
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
