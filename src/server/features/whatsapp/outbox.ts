import { sql } from 'drizzle-orm';
import { WHATSAPP_TEMPLATES, type WhatsAppTemplate } from '../../../contract/whatsapp.ts';
import type { AppDeps } from '../../deps.ts';
import type { Tx } from '../../db/client.ts';
import { whatsappConfigured } from '../../integrations/whatsapp/cloud-api.ts';
import { consentedNumber } from './consent.ts';
import { sqlRows } from '../../lib/sql-rows.ts';

// The WhatsApp outbox (docs/decisions/345-whatsapp-notices-and-consent.md): a notice is a
// `whatsapp_messages` row written in its event's transaction, so it exists exactly when the change
// does and a crash loses none; the job pass sends it (send-whatsapp.ts). Nothing is written while
// WhatsApp is not configured or the customer has not opted in for the number on their profile.

export interface WhatsAppNotice {
  orderId: string;
  template: WhatsAppTemplate;
  /** What it is about (payment, stage completion, round, message): the same ref twice is one notice. */
  refId: string;
  /** The template's parameters in order (WHATSAPP_TEMPLATES), from the customer's name, the order id and its link. */
  params: (customer: { name: string; orderPublicId: string; link: string }) => string[];
}

export async function enqueueWhatsApp(deps: AppDeps, tx: Tx, notice: WhatsAppNotice): Promise<boolean> {
  if (!whatsappConfigured(deps.config)) return false;
  const res = await tx.execute(sql`
    select u.id, u.name, u.phone_code, u.phone_number, o.public_id
      from orders o join users u on u.id = o.user_id
     where o.id = ${notice.orderId} and u.deleted_at is null`);
  const [row] = sqlRows<{ id: string; name: string | null; phone_code: string | null; phone_number: string | null; public_id: string }>(
    res,
  );
  if (!row) return false;
  const phone = await consentedNumber(tx, { id: row.id, phoneCode: row.phone_code, phoneNumber: row.phone_number });
  if (!phone) return false;
  const customer = {
    name: row.name?.trim() || 'there',
    orderPublicId: row.public_id,
    link: `${deps.config.publicUrl}/status/${row.public_id}`,
  };
  const params = notice.params(customer).map((p) => p.replace(/\s+/g, ' ').trim().slice(0, 200) || '-');
  const expected = WHATSAPP_TEMPLATES[notice.template].params.length;
  if (params.length !== expected)
    throw new Error(`WhatsApp template ${notice.template} takes ${expected} parameters, got ${params.length}`);
  await tx.execute(sql`
    insert into whatsapp_messages (order_id, user_id, template, kind, params, ref_id, phone)
    values (${notice.orderId}, ${row.id}, ${notice.template}, ${WHATSAPP_TEMPLATES[notice.template].kind}, ${JSON.stringify(params)}::jsonb,
      ${notice.refId}, ${phone})
    on conflict (template, ref_id, user_id) do nothing`);
  return true;
}
