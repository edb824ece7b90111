import type { Database } from '../../db/client.ts';

export interface LeadCounts {
  leadsPerDay: { day: string; value: number }[];
  contactsPerDay: { day: string; value: number }[];
  newLeads: number;
  newContacts: number;
}

const perDaySql = (table: string) =>
  `select to_char(created_at at time zone 'UTC', 'YYYY-MM-DD') as day, count(*)::int as value
     from ${table} where created_at >= ($1::date)::timestamp at time zone 'UTC' group by 1`;

/** Leads and contact messages per day, and how many are still unhandled. */
export async function leadCounts(database: Database, days: string[]): Promise<LeadCounts> {
  const [leadsPerDay, contactsPerDay, open] = await Promise.all([
    database.query<{ day: string; value: number }>(perDaySql('leads'), [days[0]]),
    database.query<{ day: string; value: number }>(perDaySql('contact_messages'), [days[0]]),
    database.query<{ leads: number; contacts: number }>(
      `select (select count(*) from leads where handled_at is null)::int as leads,
              (select count(*) from contact_messages where handled_at is null)::int as contacts`,
    ),
  ]);
  return { leadsPerDay, contactsPerDay, newLeads: Number(open[0]?.leads ?? 0), newContacts: Number(open[0]?.contacts ?? 0) };
}
