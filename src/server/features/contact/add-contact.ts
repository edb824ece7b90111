import type { AddContactBody } from '../../../contract/contact.ts';
import type { AppDeps } from '../../deps.ts';
import { contactMessages } from '../../db/schema/leads-and-contacts.ts';
import { notifyOwners } from '../mail/notify-owners.ts';
import { touchColumns, type FirstTouch } from '../funnel/visitors.ts';

type ValidContact = Required<AddContactBody>;

/** Stores the message (linked to the signed-in user, if any) and queues the admin notification, in one transaction. */
export async function addContact(
  deps: AppDeps,
  input: ValidContact,
  meta: { userId: string | null; ip: string; userAgent?: string; touch?: FirstTouch | null },
): Promise<void> {
  const phoneCode = `+${input.phone_code.replace(/^\+/, '')}`;
  await deps.db.transaction(async (tx) => {
    await tx.insert(contactMessages).values({
      name: input.name,
      email: input.email,
      message: input.message,
      phoneCode,
      phoneNumber: input.phone_number,
      address: input.address,
      userId: meta.userId,
      ip: meta.ip,
      userAgent: meta.userAgent?.slice(0, 300) ?? null,
      ...touchColumns(meta.touch),
    });
    await notifyOwners(deps, tx, 'contact-message', {
      subject: `Contact form: ${input.name}`,
      heading: 'New message from the contact form',
      paragraphs: [meta.userId ? 'Sent by a signed-in customer.' : 'Sent by a visitor.'],
      rows: [
        ['Name', input.name],
        ['E-mail', input.email],
        ['Phone', `${phoneCode} ${input.phone_number}`],
        ['Address', input.address || '—'],
        ['Message', input.message || '—'],
      ],
      action: { label: 'Open the back office', url: `${deps.config.publicUrl}/admin` },
    });
  });
}
