import { eq, sql } from 'drizzle-orm';
import type { AppDeps } from '../../deps.ts';
import { leads } from '../../db/schema/leads-and-contacts.ts';

/** A deleted account's address leaves the leads list (decision 192): its e-mail leads are deleted. */
export function subscribeLeads(deps: AppDeps) {
  deps.events.inTransaction('account.deleted', async (e, tx) => {
    await tx.delete(leads).where(eq(sql`lower(${leads.email})`, e.email));
  });
}
