import { eq } from 'drizzle-orm';
import type { AppDeps } from '../../deps.ts';
import { users } from '../../db/schema/platform.ts';
import { applySignInRole } from './admin-role.ts';
import { cityOfAddress } from './sign-in-city.ts';
import { createSession, type SessionUser } from './sessions.ts';

export async function findUserByEmail(deps: AppDeps, email: string): Promise<SessionUser | undefined> {
  const [user] = await deps.db.select().from(users).where(eq(users.email, email.toLowerCase())).limit(1);
  return user;
}

export async function findUserById(deps: AppDeps, id: string): Promise<SessionUser | undefined> {
  const [user] = await deps.db.select().from(users).where(eq(users.id, id)).limit(1);
  return user;
}

/** Where a sign-in comes from: the device for the sessions list, and whether a passkey made it. */
export interface SignInContext {
  userAgent?: string;
  /** The client's address, only to look up the city for the sessions list; never stored. */
  ip?: string;
  /** A passkey sign-in: the session starts confirmed for the back office (decision 190). */
  confirmed?: boolean;
}

/** The one way every sign-in path ends: role bootstrap, then a fresh opaque session token. */
export async function signIn(deps: AppDeps, user: SessionUser, context: SignInContext = {}) {
  const [current, city] = await Promise.all([applySignInRole(deps, user), cityOfAddress(deps.config, context.ip)]);
  const token = await createSession(deps.db, current.id, context.userAgent, { confirmed: context.confirmed, city });
  return { token, userId: current.id };
}
