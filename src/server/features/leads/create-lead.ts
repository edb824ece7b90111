import type { AppDeps } from '../../deps.ts';
import { leads } from '../../db/schema/leads-and-contacts.ts';
import { notifyOwners } from '../mail/notify-owners.ts';
import { touchColumns, type FirstTouch } from '../funnel/visitors.ts';

export interface NewLead {
  kind: 'email' | 'phone';
  /** The validated e-mail address or phone (code joined with the digits). */
  value: string;
  page?: string;
  ip: string;
  userAgent?: string;
  /** Where the visitor first came from (decision 097); null when unknown. */
  touch?: FirstTouch | null;
}

/** Stores the lead and queues the admin notification in one transaction: both or neither. */
export async function createLead(deps: AppDeps, lead: NewLead): Promise<void> {
  await deps.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(leads)
      .values({
        kind: lead.kind,
        email: lead.kind === 'email' ? lead.value : null,
        phone: lead.kind === 'phone' ? lead.value : null,
        page: lead.page ?? null,
        ip: lead.ip,
        userAgent: lead.userAgent?.slice(0, 300) ?? null,
        ...touchColumns(lead.touch),
      })
      .returning({ id: leads.id, createdAt: leads.createdAt });
    const label = lead.kind === 'email' ? 'E-mail' : 'Phone';
    await notifyOwners(deps, tx, `lead-${lead.kind}`, {
      subject: `New lead: ${lead.value}`,
      heading: 'A visitor asked to be contacted',
      paragraphs: [
        `Someone left their ${lead.kind === 'email' ? 'e-mail address' : 'phone number'} on the website. Please reach out to them.`,
      ],
      rows: [
        [label, lead.value],
        ['Page', lead.page ?? '/'],
        ['Received', row!.createdAt.toISOString()],
      ],
      action: { label: 'Open the back office', url: `${deps.config.publicUrl}/admin` },
    });
  });
}
