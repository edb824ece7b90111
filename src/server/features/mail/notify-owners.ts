import type { AppDeps } from '../../deps.ts';
import type { Db, Tx } from '../../db/client.ts';
import { renderEmail, type EmailContent } from './render-email.ts';

/**
 * Who hears what the owner must know — leads, contact messages, refunds, overdue payments:
 * ADMIN_EMAILS, else the brand's own address.
 */
export function ownerRecipients(config: AppDeps['config']): string[] {
  return config.ADMIN_EMAILS.length ? config.ADMIN_EMAILS : [config.BRAND_EMAIL];
}

/**
 * Queues one notification per owner address through the outbox (retried by the mail worker), in `tx`: the
 * transaction of what it reports. Every value is escaped by renderEmail, so HTML typed by a
 * visitor arrives as text.
 */
export async function notifyOwners(deps: AppDeps, tx: Db | Tx, template: string, content: EmailContent): Promise<void> {
  const mail = renderEmail(deps.config.BRAND_NAME, content);
  for (const to of ownerRecipients(deps.config)) await deps.mailer.enqueue(tx, to, template, mail);
}
