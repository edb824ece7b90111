import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { users } from '../../db/schema/platform.ts';

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

/**
 * Runs `work` in a transaction holding the account's row lock: adding and removing passkeys of one
 * account happen one after the other, so "the first passkey" and "the last passkey" are facts, not
 * races (two first registrations would both get recovery codes; two removals could leave none).
 */
export function withAccountLocked<T>(db: Db, userId: string, work: (tx: Tx) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update');
    return work(tx);
  });
}
