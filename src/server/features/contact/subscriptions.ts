import { eq, or, sql } from 'drizzle-orm';
import type { AppDeps } from '../../deps.ts';
import { contactMessages } from '../../db/schema/leads-and-contacts.ts';

/** A deleted account's contact messages (decision 192): by the account or the address, deleted. */
export function subscribeContact(deps: AppDeps) {
  deps.events.inTransaction('account.deleted', async (e, tx) => {
    await tx.delete(contactMessages).where(or(eq(contactMessages.userId, e.userId), eq(sql`lower(${contactMessages.email})`, e.email)));
  });
}
