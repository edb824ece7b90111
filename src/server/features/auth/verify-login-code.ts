import { and, desc, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import type { AppDeps } from '../../deps.ts';
import { loginCodes } from '../../db/schema/accounts.ts';
import { badRequest } from '../../lib/app-error.ts';
import { hashCode, sameHash } from './secrets.ts';
import { findUserByEmail, signIn } from './sign-in.ts';
import { createSignupTicket } from './signup-tickets.ts';

export const MAX_WRONG_TRIES = 5;

const invalid = () => badRequest('Invalid OTP. Please try again.');

/**
 * Checks a code (DESIGN §5): the try is counted before the comparison, in one atomic update, so
 * parallel guesses cannot get more than five tries; the code is then consumed atomically, so it
 * works once. A known e-mail gets a session, an unknown one a signup ticket.
 */
export async function verifyLoginCode(deps: AppDeps, input: { email: string; otp: string; userAgent?: string }) {
  const { email, otp } = input;
  const [latest] = await deps.db
    .select({ id: loginCodes.id })
    .from(loginCodes)
    .where(and(eq(loginCodes.email, email), isNull(loginCodes.consumedAt)))
    .orderBy(desc(loginCodes.createdAt))
    .limit(1);
  if (!latest) throw invalid();
  const [code] = await deps.db
    .update(loginCodes)
    .set({ attempts: sql`${loginCodes.attempts} + 1` })
    .where(
      and(
        eq(loginCodes.id, latest.id),
        isNull(loginCodes.consumedAt),
        lt(loginCodes.attempts, MAX_WRONG_TRIES),
        gt(loginCodes.expiresAt, new Date()),
      ),
    )
    .returning();
  if (!code) throw badRequest('This code has expired or was tried too many times. Please request a new code.');
  if (!sameHash(hashCode(code.salt, email, code.purpose, otp), code.codeHash)) {
    if (code.attempts >= MAX_WRONG_TRIES) {
      throw badRequest('Too many wrong codes. Please request a new code.');
    }
    throw invalid();
  }
  const [consumed] = await deps.db
    .update(loginCodes)
    .set({ consumedAt: new Date() })
    .where(and(eq(loginCodes.id, code.id), isNull(loginCodes.consumedAt)))
    .returning({ id: loginCodes.id });
  if (!consumed) throw invalid();

  const user = await findUserByEmail(deps, email);
  if (user) {
    // A sign-up code only ever proves a new address; it never opens an existing account.
    if (code.purpose === 'signup') throw badRequest('This e-mail already has an account. Please sign in instead.');
    const session = await signIn(deps, user, input.userAgent);
    return { success: true as const, ...session, isNewUser: false };
  }
  const signupTicket = await createSignupTicket(deps, { email });
  return { success: true as const, signupTicket, isNewUser: true };
}
