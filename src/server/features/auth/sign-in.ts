import { eq } from 'drizzle-orm';
import type { AppDeps } from '../../deps.ts';
import { users } from '../../db/schema/platform.ts';
import { applyAdminRole } from './admin-role.ts';
import { createSession, type SessionUser } from './sessions.ts';

export async function findUserByEmail(deps: AppDeps, email: string): Promise<SessionUser | undefined> {
  const [user] = await deps.db.select().from(users).where(eq(users.email, email.toLowerCase())).limit(1);
  return user;
}

export async function findUserById(deps: AppDeps, id: string): Promise<SessionUser | undefined> {
  const [user] = await deps.db.select().from(users).where(eq(users.id, id)).limit(1);
  return user;
}

/** The one way every sign-in path ends: role bootstrap, then a fresh opaque session token. */
export async function signIn(deps: AppDeps, user: SessionUser, userAgent?: string) {
  const current = await applyAdminRole(deps, user);
  const token = await createSession(deps.db, current.id, userAgent);
  return { token, userId: current.id };
}
