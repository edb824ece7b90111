import { eq } from 'drizzle-orm';
import type { AppDeps } from '../../deps.ts';
import { users } from '../../db/schema/platform.ts';
import type { SessionUser } from './sessions.ts';

/** ADMIN_EMAILS bootstraps the founder's role (DESIGN §5 "Sessions"). */
export function isAdminEmail(deps: AppDeps, email: string): boolean {
  const e = email.toLowerCase();
  return deps.config.ADMIN_EMAILS.some((a) => a.toLowerCase() === e);
}

/**
 * Promotes a listed user at sign-in. It never demotes: removing an address from the list must not
 * lock out an admin in the middle of work; see docs/decisions/021-admin-role.md.
 */
export async function applyAdminRole(deps: AppDeps, user: SessionUser): Promise<SessionUser> {
  if (user.role === 'admin' || !isAdminEmail(deps, user.email)) return user;
  const [updated] = await deps.db
    .update(users)
    .set({ role: 'admin', updatedAt: new Date() })
    .where(eq(users.id, user.id))
    .returning();
  return updated ?? user;
}
