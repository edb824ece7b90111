import nodemailer from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';

export interface OutgoingMail {
  from: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  attachments?: MailAttachment[];
}

export interface MailAttachment {
  filename: string;
  contentType: string;
  content: Buffer;
}

export interface MailTransport {
  readonly name: 'smtp' | 'dev';
  send(mail: OutgoingMail): Promise<void>;
  close(): void;
}

/** Real delivery through any SMTP server named by SMTP_URL (smtp:// or smtps://, credentials in the URL). */
export function createSmtpTransport(smtpUrl: string): MailTransport {
  const transporter = nodemailer.createTransport(smtpUrl);
  return {
    name: 'smtp',
    async send(mail) {
      await transporter.sendMail(mail);
    },
    close: () => transporter.close(),
  };
}

/**
 * The embedded default: messages stay in the outbox table (readable by an admin at the dev
 * mailbox page) and are printed to the log so a developer can read a sign-in code.
 */
export function createDevMailbox(log: FastifyBaseLogger): MailTransport {
  return {
    name: 'dev',
    async send(mail) {
      log.info({ to: mail.to, subject: mail.subject }, `dev mailbox:\n${mail.text}`);
    },
    close() {},
  };
}
