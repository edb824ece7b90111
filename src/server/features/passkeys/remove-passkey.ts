import { and, count, eq } from 'drizzle-orm';
import type { AppDeps } from '../../deps.ts';
import { passkeys } from '../../db/schema/account-security.ts';
import { conflict, notFound } from '../../lib/app-error.ts';
import type { AuthContext } from '../auth/sessions.ts';
import { withAccountLocked } from './account-lock.ts';
import { assertConfirmed, passkeysGuarded } from './step-up-rule.ts';

export const LAST_PASSKEY =
  'This is your only passkey, and the back office needs one. Add another passkey first, then remove this one. ' +
  '(Lost every device? The server operator can run `npm run admin:reset-passkeys -- EMAIL`.)';

/**
 * Removes one of the person's own passkeys (another account's answers 404, as if it did not exist).
 * A guarded back-office account (decision 190) needs a confirmed session, and keeps its last one.
 */
export async function removePasskey(deps: AppDeps, auth: AuthContext, id: string) {
  const userId = auth.user.id;
  await withAccountLocked(deps.db, userId, async (tx) => {
    const [row] = await tx
      .select({ id: passkeys.id })
      .from(passkeys)
      .where(and(eq(passkeys.id, id), eq(passkeys.userId, userId)));
    if (!row) throw notFound('Passkey not found.');
    if (passkeysGuarded(deps.config, auth)) {
      const [mine] = await tx.select({ n: count() }).from(passkeys).where(eq(passkeys.userId, userId));
      if ((mine?.n ?? 0) <= 1) throw conflict(LAST_PASSKEY);
      assertConfirmed(deps.config, auth, 'remove a passkey');
    }
    await tx.delete(passkeys).where(eq(passkeys.id, row.id));
  });
  return { success: true as const };
}
