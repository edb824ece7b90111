import { sql } from 'drizzle-orm';
import type { AppDeps } from '../../deps.ts';
import type { Tx } from '../../db/client.ts';
import { renderEmail, type EmailContent } from '../mail/render-email.ts';
import { ownerRecipients } from '../mail/notify-owners.ts';
import { formatDuration } from '../../../domain/site-care.ts';
import type { IncidentCause } from '../../../contract/site-care.ts';
import { formatWhen } from '../../../domain/when.ts';
import { mailTimeZone } from '../mail/mail-time.ts';

// Who hears of a watched site and what they read (docs/decisions/326-site-incidents-and-mails.md).
// Every mail is queued in the transaction that records the change of state (the outbox).

export const SITE_DOWN_TEMPLATE = 'site-down';
export const SITE_UP_TEMPLATE = 'site-up';
export const CERT_WARNING_TEMPLATE = 'site-certificate-expiring';
export const DOMAIN_WARNING_TEMPLATE = 'site-domain-expiring';

export const CAUSE_TEXT: Record<IncidentCause, string> = {
  status: 'the server answered with an error (5xx) or not at all',
  timeout: 'no complete answer within 10 seconds',
  text: 'the page no longer contains the expected text',
  certificate: 'the HTTPS certificate was refused',
  connection: 'no connection could be made',
  address: 'the address is not a public one',
};

export interface SiteMailContext {
  orderId: string;
  orderPublicId: string;
  url: string;
  customerEmail: string | null;
  customerMails: boolean;
}

/**
 * The agency's recipients for an order: the owner (ADMIN_EMAILS, else the brand's address) and the
 * order's staff — staff who worked on it (an audited action on the order, a message or support reply,
 * a site they added). There is no assignment of staff to orders; who acted on it is who knows it.
 */
export async function agencyRecipients(deps: AppDeps, tx: Tx, orderId: string): Promise<string[]> {
  const rows = await tx.execute(
    sql`
      select distinct u.email from users u
       where u.role = 'staff' and u.email not like 'deleted-%' and (
             u.id in (select l.actor_user_id from admin_audit_log l join orders o on o.public_id = l.entity_id where l.entity = 'order' and o.id = ${orderId})
          or u.id in (select m.sender_user_id from order_messages m where m.order_id = ${orderId} and m.sender = 'agency')
          or u.id in (select sm.sender_user_id from support_messages sm join support_requests r on r.id = sm.request_id where
            r.order_id = ${orderId} and sm.sender = 'agency')
          or u.id in (select s.added_by from watched_sites s where s.order_id = ${orderId}))`,
  );
  const staff = (rows as unknown as { rows: { email: string }[] }).rows.map((r) => r.email);
  return [...new Set([...ownerRecipients(deps.config), ...staff].map((e) => e.toLowerCase()))];
}

async function send(deps: AppDeps, tx: Tx, to: string[], template: string, content: EmailContent) {
  const mail = renderEmail(deps.config.BRAND_NAME, content);
  for (const address of to) await deps.mailer.enqueue(tx, address, template, mail);
}

const at = (d: Date, timeZone: string) => formatWhen(d, timeZone);

/** "Down" to the agency, and to the customer unless they switched these mails off. */
export async function mailDown(deps: AppDeps, tx: Tx, c: SiteMailContext, incident: { startedAt: Date; cause: IncidentCause }) {
  const tz = mailTimeZone(deps.config);
  const rows: [string, string][] = [
    ['Order', c.orderPublicId],
    ['Site', c.url],
    ['Down since', at(incident.startedAt, tz)],
    ['Cause', CAUSE_TEXT[incident.cause]],
  ];
  await send(deps, tx, await agencyRecipients(deps, tx, c.orderId), SITE_DOWN_TEMPLATE, {
    subject: `Site down: ${c.url} (${c.orderPublicId})`,
    heading: 'A watched site is down',
    paragraphs: ['Two checks in a row failed. You will hear again when it answers.'],
    rows,
    action: { label: 'Open the watched sites', url: `${deps.config.publicUrl}/admin/sites` },
  });
  if (c.customerEmail && c.customerMails)
    await send(deps, tx, [c.customerEmail], SITE_DOWN_TEMPLATE, {
      subject: `Your website is not answering — ${c.url}`,
      heading: 'Your website is not answering',
      paragraphs: [
        'Our checks could not reach your website twice in a row. We are on it, and you will hear from us when it is back.',
        'You can switch these e-mails off on your dashboard.',
      ],
      rows,
      action: { label: 'See your site’s health', url: `${deps.config.publicUrl}/status/${c.orderPublicId}?tab=support` },
    });
}

/** "Up again", with how long it was down, to the same people. */
export async function mailUp(
  deps: AppDeps,
  tx: Tx,
  c: SiteMailContext,
  incident: { startedAt: Date; endedAt: Date; cause: IncidentCause } | null,
) {
  const tz = mailTimeZone(deps.config);
  const length = incident
    ? formatDuration(Math.max(1, Math.ceil((incident.endedAt.getTime() - incident.startedAt.getTime()) / 60_000)))
    : null;
  const rows: [string, string][] = [
    ['Order', c.orderPublicId],
    ['Site', c.url],
    ...(incident
      ? ([
          ['Down from', at(incident.startedAt, tz)],
          ['Back at', at(incident.endedAt, tz)],
          ['Down for', length!],
          ['Cause', CAUSE_TEXT[incident.cause]],
        ] as [string, string][])
      : []),
  ];
  await send(deps, tx, await agencyRecipients(deps, tx, c.orderId), SITE_UP_TEMPLATE, {
    subject: `Site up again: ${c.url}${length ? ` after ${length}` : ''} (${c.orderPublicId})`,
    heading: 'The site answers again',
    paragraphs: ['The last check succeeded.'],
    rows,
  });
  if (c.customerEmail && c.customerMails)
    await send(deps, tx, [c.customerEmail], SITE_UP_TEMPLATE, {
      subject: `Your website is back — ${c.url}`,
      heading: 'Your website answers again',
      paragraphs: [
        length ? `It was unreachable for ${length}.` : 'It answers our checks again.',
        'You can switch these e-mails off on your dashboard.',
      ],
      rows,
      action: { label: 'See your site’s health', url: `${deps.config.publicUrl}/status/${c.orderPublicId}?tab=support` },
    });
}

/** A certificate's end is near: the agency renews certificates. */
export async function mailCertificate(deps: AppDeps, tx: Tx, c: SiteMailContext, validTo: Date, left: number) {
  await send(deps, tx, await agencyRecipients(deps, tx, c.orderId), CERT_WARNING_TEMPLATE, {
    subject: `Certificate expires in ${left} day${left === 1 ? '' : 's'}: ${c.url} (${c.orderPublicId})`,
    heading: 'A certificate expires soon',
    paragraphs: ['Renew it before it expires, or visitors will see a security warning.'],
    rows: [
      ['Order', c.orderPublicId],
      ['Site', c.url],
      ['Valid until', at(validTo, mailTimeZone(deps.config))],
      ['Days left', String(left)],
    ],
  });
}

/** A domain's expiry is near: the agency, and the customer when the domain is theirs to renew. */
export async function mailDomain(
  deps: AppDeps,
  tx: Tx,
  c: SiteMailContext,
  d: { name: string; expiresAt: Date; left: number; renewedBy: 'agency' | 'customer' },
) {
  const rows: [string, string][] = [
    ['Order', c.orderPublicId],
    ['Domain', d.name],
    ['Expires', at(d.expiresAt, mailTimeZone(deps.config))],
    ['Days left', String(d.left)],
  ];
  await send(deps, tx, await agencyRecipients(deps, tx, c.orderId), DOMAIN_WARNING_TEMPLATE, {
    subject: `Domain expires in ${d.left} days: ${d.name} (${c.orderPublicId})`,
    heading: 'A domain expires soon',
    paragraphs: [
      d.renewedBy === 'customer'
        ? 'The customer renews this domain; they were told too.'
        : 'We renew this domain: renew it before it expires.',
    ],
    rows,
  });
  if (d.renewedBy === 'customer' && c.customerEmail)
    await send(deps, tx, [c.customerEmail], DOMAIN_WARNING_TEMPLATE, {
      subject: `Your domain ${d.name} expires in ${d.left} days`,
      heading: 'Please renew your domain',
      paragraphs: [
        'Your domain is registered in your name: renew it with your registrar before it expires, or your website and e-mail stop working.',
      ],
      rows,
    });
}
