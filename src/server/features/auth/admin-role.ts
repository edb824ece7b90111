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

/**
 * The account of an ADMIN_EMAILS address signing in for the first time (issue 12 item 13, decision
 * 076): created with the admin role and no customer details, so the founder goes straight in. Two
 * first sign-ins at once end with the one account.
 */
export async function createAdminAccount(deps: AppDeps, email: string, name: string | null = null): Promise<SessionUser> {
  const address = email.toLowerCase();
  const [created] = await deps.db
    .insert(users)
    .values({ email: address, name, role: 'admin' })
    .onConflictDoNothing({ target: users.email })
    .returning();
  if (created) return created;
  const [existing] = await deps.db.select().from(users).where(eq(users.email, address)).limit(1);
  if (!existing) throw new Error(`the account of ${address} vanished while it was created`);
  return existing;
}
