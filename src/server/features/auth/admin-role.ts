import { eq } from 'drizzle-orm';
import { isOwner, OWNER_ROLE, type UserRole } from '../../../domain/roles.ts';
import type { Db } from '../../db/client.ts';
import type { AppDeps } from '../../deps.ts';
import { staffMembers } from '../../db/schema/account-security.ts';
import { users } from '../../db/schema/platform.ts';
import type { SessionUser } from './sessions.ts';

/** ADMIN_EMAILS names the owner ("the founder" in the product's texts). */
export function isOwnerEmail(deps: AppDeps, email: string): boolean {
  const e = email.toLowerCase();
  return deps.config.ADMIN_EMAILS.some((a) => a.toLowerCase() === e);
}

/** Whether the owner's staff list (/admin/staff, decision 191) has this address. */
export async function isStaffEmail(db: Db, email: string): Promise<boolean> {
  const [row] = await db.select({ id: staffMembers.id }).from(staffMembers).where(eq(staffMembers.email, email.toLowerCase())).limit(1);
  return !!row;
}

/**
 * The role a sign-in gives: the owner for an ADMIN_EMAILS address, staff for an address on the staff
 * list, else a customer. The owner's role is never taken away here: removing an address from
 * ADMIN_EMAILS must not lock out an admin in the middle of work (docs/decisions/021-admin-role.md).
 * The staff role follows the list both ways (decision 191): an invited customer becomes staff, and
 * staff whose address left the list (their e-mail changed, say) are customers again.
 */
export async function roleAtSignIn(deps: AppDeps, user: Pick<SessionUser, 'role' | 'email'>): Promise<UserRole> {
  if (isOwner(user.role) || isOwnerEmail(deps, user.email)) return OWNER_ROLE;
  return (await isStaffEmail(deps.db, user.email)) ? 'staff' : 'customer';
}

/** Gives the user the role of roleAtSignIn, at every sign-in. */
export async function applySignInRole(deps: AppDeps, user: SessionUser): Promise<SessionUser> {
  const role = await roleAtSignIn(deps, user);
  if (role === user.role) return user;
  const [updated] = await deps.db.update(users).set({ role, updatedAt: new Date() }).where(eq(users.id, user.id)).returning();
  return updated ?? user;
}

/**
 * The account of an ADMIN_EMAILS address signing in for the first time (decision
 * 076): created with the owner's role and no customer details, so the founder goes straight in. Two
 * first sign-ins at once end with the one account.
 */
export async function createOwnerAccount(deps: AppDeps, email: string, name: string | null = null): Promise<SessionUser> {
  const address = email.toLowerCase();
  const [created] = await deps.db
    .insert(users)
    .values({ email: address, name, role: OWNER_ROLE })
    .onConflictDoNothing({ target: users.email })
    .returning();
  if (created) return created;
  const [existing] = await deps.db.select().from(users).where(eq(users.email, address)).limit(1);
  if (!existing) throw new Error(`the account of ${address} vanished while it was created`);
  return existing;
}
