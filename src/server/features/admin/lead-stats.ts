import type { Database } from '../../db/client.ts';

export interface LeadCounts {
  leadsPerDay: { day: string; value: number }[];
  contactsPerDay: { day: string; value: number }[];
  newLeads: number;
  newContacts: number;
}

/** Leads and contact messages per day and still unhandled (issue 3's tables); empty until they exist. */
export async function leadCounts(_database: Database, _days: string[]): Promise<LeadCounts> {
  return { leadsPerDay: [], contactsPerDay: [], newLeads: 0, newContacts: 0 };
}
