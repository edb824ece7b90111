import { and, eq, gt, isNull } from 'drizzle-orm';
import type { AppDeps } from '../../deps.ts';
import { signupTickets, type SocialProfile } from '../../db/schema/accounts.ts';
import { badRequest } from '../../lib/app-error.ts';
import type { SocialProvider } from '../../../contract/auth.ts';
import { randomToken, sha256 } from './secrets.ts';

// A signup ticket is the proof that the holder controls an e-mail address (a verified code or a
// verified provider e-mail). user/addUser refuses to create an account without one.
const TICKET_TTL_MS = 30 * 60_000;

export interface PendingIdentity {
  provider: SocialProvider;
  subject: string;
  name: string | null;
  profile: SocialProfile;
}

export async function createSignupTicket(deps: AppDeps, input: { email: string; identity?: PendingIdentity }) {
  const token = randomToken();
  await deps.db.insert(signupTickets).values({
    tokenHash: sha256(token),
    email: input.email,
    provider: input.identity?.provider,
    subject: input.identity?.subject,
    name: input.identity?.name,
    profile: input.identity?.profile,
    expiresAt: new Date(Date.now() + TICKET_TTL_MS),
  });
  return token;
}

/** Spends a ticket that was issued for exactly this e-mail; someone else's ticket stays unspent. */
export async function consumeSignupTicket(deps: AppDeps, token: string, email: string) {
  const refused = () => badRequest('Your sign-up session has expired or does not match this e-mail. Please verify your e-mail again.');
  const hash = sha256(token);
  const [ticket] = await deps.db.select().from(signupTickets).where(eq(signupTickets.tokenHash, hash)).limit(1);
  if (!ticket || ticket.email !== email) throw refused();
  const [spent] = await deps.db
    .update(signupTickets)
    .set({ usedAt: new Date() })
    .where(and(eq(signupTickets.tokenHash, hash), isNull(signupTickets.usedAt), gt(signupTickets.expiresAt, new Date())))
    .returning();
  if (!spent) throw refused();
  return spent;
}
