import { and, count, desc, eq, isNotNull, isNull, sql, type SQL } from 'drizzle-orm';
import type { AdminContact, AdminLead, ContactListResponse, InboxQuery, LeadListResponse } from '../../../contract/admin-leads.ts';
import { sourceLabel } from '../../../contract/funnel.ts';
import type { Db } from '../../db/client.ts';
import { contactMessages, leads } from '../../db/schema/leads-and-contacts.ts';
import { notFound } from '../../lib/app-error.ts';
import { recordAudit } from '../../lib/audit-log.ts';
import { toCsv } from '../../lib/csv.ts';

// Leads and contact messages: lists, "mark handled", CSV export.

type Status = InboxQuery['status'];
const iso = (d: Date | null) => (d ? d.toISOString() : null);
const CSV_LIMIT = 50_000;

const statusFilter = (col: typeof leads.handledAt | typeof contactMessages.handledAt, status: Status): SQL | undefined =>
  status === 'new' ? isNull(col) : status === 'handled' ? isNotNull(col) : undefined;

const toLead = (r: typeof leads.$inferSelect): AdminLead => ({
  id: r.id,
  kind: r.kind,
  email: r.email,
  phone: r.phone,
  page: r.page,
  source: sourceLabel(r),
  createdAt: r.createdAt.toISOString(),
  handledAt: iso(r.handledAt),
});

const toContact = (r: typeof contactMessages.$inferSelect): AdminContact => ({
  id: r.id,
  name: r.name,
  email: r.email,
  message: r.message,
  phoneCode: r.phoneCode,
  phoneNumber: r.phoneNumber,
  address: r.address,
  userId: r.userId,
  source: sourceLabel(r),
  createdAt: r.createdAt.toISOString(),
  handledAt: iso(r.handledAt),
});

export async function listLeads(db: Db, q: InboxQuery): Promise<LeadListResponse> {
  const where = statusFilter(leads.handledAt, q.status);
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(leads)
      .where(where)
      .orderBy(desc(leads.createdAt), desc(leads.id))
      .limit(q.pageSize)
      .offset((q.page - 1) * q.pageSize),
    db.select({ n: count() }).from(leads).where(where),
  ]);
  return { items: rows.map(toLead), pageInfo: { page: q.page, pageSize: q.pageSize, total: Number(total?.n ?? 0) } };
}

export async function listContacts(db: Db, q: InboxQuery): Promise<ContactListResponse> {
  const where = statusFilter(contactMessages.handledAt, q.status);
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(contactMessages)
      .where(where)
      .orderBy(desc(contactMessages.createdAt), desc(contactMessages.id))
      .limit(q.pageSize)
      .offset((q.page - 1) * q.pageSize),
    db.select({ n: count() }).from(contactMessages).where(where),
  ]);
  return { items: rows.map(toContact), pageInfo: { page: q.page, pageSize: q.pageSize, total: Number(total?.n ?? 0) } };
}

export async function leadsCsv(db: Db, status: Status): Promise<string> {
  const rows = await db.select().from(leads).where(statusFilter(leads.handledAt, status)).orderBy(desc(leads.createdAt)).limit(CSV_LIMIT);
  return toCsv(
    ['created_at', 'kind', 'email', 'phone', 'page', 'source', 'handled_at'],
    rows.map((r) => [r.createdAt, r.kind, r.email, r.phone, r.page, sourceLabel(r), r.handledAt]),
  );
}

export async function contactsCsv(db: Db, status: Status): Promise<string> {
  const rows = await db
    .select()
    .from(contactMessages)
    .where(statusFilter(contactMessages.handledAt, status))
    .orderBy(desc(contactMessages.createdAt))
    .limit(CSV_LIMIT);
  return toCsv(
    ['created_at', 'name', 'email', 'phone_code', 'phone_number', 'address', 'message', 'source', 'handled_at'],
    rows.map((r) => [r.createdAt, r.name, r.email, r.phoneCode, r.phoneNumber, r.address, r.message, sourceLabel(r), r.handledAt]),
  );
}

/** Marks one entry handled; doing it twice changes nothing and records nothing. */
export async function markHandled(db: Db, actorUserId: string, kind: 'lead' | 'contact', id: string) {
  const table = kind === 'lead' ? leads : contactMessages;
  return db.transaction(async (tx) => {
    const [row] = await tx.select({ handledAt: table.handledAt }).from(table).where(eq(table.id, id)).for('update');
    if (!row) throw notFound(kind === 'lead' ? 'No such lead.' : 'No such contact message.');
    if (row.handledAt) return { id, handledAt: row.handledAt.toISOString() };
    const [after] = await tx
      .update(table)
      .set({ handledAt: sql`now()` })
      .where(and(eq(table.id, id), isNull(table.handledAt)))
      .returning({ handledAt: table.handledAt });
    const handledAt = after!.handledAt!.toISOString();
    await recordAudit(tx, {
      actorUserId,
      action: kind === 'lead' ? 'lead.handle' : 'contact.handle',
      entity: kind,
      entityId: id,
      before: { handledAt: null },
      after: { handledAt },
    });
    return { id, handledAt };
  });
}
