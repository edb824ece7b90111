import { and, asc, count, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { passkeys } from '../../db/schema/account-security.ts';
import type { PasskeySummary } from '../../../contract/passkeys.ts';

export type PasskeyRow = typeof passkeys.$inferSelect;

export const toSummary = (p: PasskeyRow): PasskeySummary => ({
  id: p.id,
  name: p.name,
  createdAt: p.createdAt.toISOString(),
  lastUsedAt: p.lastUsedAt?.toISOString() ?? null,
  backedUp: p.backedUp,
});

export const passkeysOf = (db: Db, userId: string) =>
  db.select().from(passkeys).where(eq(passkeys.userId, userId)).orderBy(asc(passkeys.createdAt));

export async function passkeyCount(db: Db, userId: string): Promise<number> {
  const [row] = await db.select({ n: count() }).from(passkeys).where(eq(passkeys.userId, userId));
  return row?.n ?? 0;
}

/** The passkey with this credential id (the browser's `id`), optionally only if it is this user's. */
export async function findByCredentialId(db: Db, credentialId: string, userId?: string): Promise<PasskeyRow | undefined> {
  const [row] = await db
    .select()
    .from(passkeys)
    .where(userId ? and(eq(passkeys.credentialId, credentialId), eq(passkeys.userId, userId)) : eq(passkeys.credentialId, credentialId))
    .limit(1);
  return row;
}
