import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { passkeys, recoveryCodes, webauthnChallenges } from '../../db/schema/account-security.ts';
import { sessions, users } from '../../db/schema/platform.ts';

export interface PasskeyReset {
  email: string;
  role: string;
  passkeys: number;
  recoveryCodes: number;
  sessions: number;
}

/**
 * `npm run admin:reset-passkeys -- EMAIL` (decision 190): an owner who lost every passkey and
 * every recovery code is let back in from the server's shell. The account's passkeys, recovery
 * codes and open ceremonies go, and every session ends, so whoever holds one must sign in again
 * (by e-mail code) and, being back office, add a new first passkey. Undefined for an unknown address.
 */
export async function resetPasskeys(db: Db, email: string): Promise<PasskeyReset | undefined> {
  return db.transaction(async (tx) => {
    const [user] = await tx
      .select({ id: users.id, email: users.email, role: users.role })
      .from(users)
      .where(eq(users.email, email.trim().toLowerCase()))
      .for('update');
    if (!user) return undefined;
    const removed = await tx.delete(passkeys).where(eq(passkeys.userId, user.id)).returning({ id: passkeys.id });
    const codes = await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, user.id)).returning({ id: recoveryCodes.id });
    await tx.delete(webauthnChallenges).where(eq(webauthnChallenges.userId, user.id));
    const ended = await tx
      .update(sessions)
      .set({ revokedAt: sql`now()` })
      .where(and(eq(sessions.userId, user.id), isNull(sessions.revokedAt)))
      .returning({ id: sessions.id });
    return { email: user.email, role: user.role, passkeys: removed.length, recoveryCodes: codes.length, sessions: ended.length };
  });
}
