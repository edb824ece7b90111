import { and, desc, eq, gt, isNotNull, isNull, lt, sql } from 'drizzle-orm';
import type { AppDeps } from '../../deps.ts';
import { loginCodes } from '../../db/schema/accounts.ts';
import { badRequest } from '../../lib/app-error.ts';
import { hashCode, sameHash } from './secrets.ts';
import { createOwnerAccount, isOwnerEmail, isStaffEmail } from './admin-role.ts';
import { findUserByEmail, signIn, type SignInContext } from './sign-in.ts';
import { createSignupTicket } from './signup-tickets.ts';

export const MAX_WRONG_TRIES = 5;

const invalid = () => badRequest('Invalid OTP. Please try again.');
export const REPLACED = 'This code was replaced by a newer one. Please enter the code from the latest e-mail.';

/**
 * Whether `otp` is an earlier code of this address that a newer one replaced: the person typed the
 * code of the first e-mail, so "Invalid" would mislead them. The row itself says
 * it was retired by a newer send (`superseded_at`, decision 075). It never signs in.
 */
async function isSupersededCode(deps: AppDeps, email: string, latestId: string, otp: string): Promise<boolean> {
  const retired = await deps.db
    .select({ id: loginCodes.id, salt: loginCodes.salt, purpose: loginCodes.purpose, codeHash: loginCodes.codeHash })
    .from(loginCodes)
    .where(and(eq(loginCodes.email, email), isNotNull(loginCodes.supersededAt), gt(loginCodes.expiresAt, new Date())))
    .orderBy(desc(loginCodes.createdAt))
    .limit(6);
  return retired.some((c) => c.id !== latestId && sameHash(hashCode(c.salt, email, c.purpose, otp), c.codeHash));
}

/**
 * Checks a code and uses it up: the try is counted before the comparison, in one atomic
 * update, so parallel guesses cannot get more than five tries; the code is then consumed
 * atomically, so it works once. Throws 400 like verifyOtp on a wrong, expired or used-up code.
 * Shared by the sign-in and by the confirmation of an account deletion (decision 192).
 */
export async function consumeLoginCode(deps: AppDeps, email: string, otp: string) {
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
    if (await isSupersededCode(deps, email, code.id, otp)) throw badRequest(REPLACED);
    throw invalid();
  }
  const [consumed] = await deps.db
    .update(loginCodes)
    .set({ consumedAt: new Date() })
    .where(and(eq(loginCodes.id, code.id), isNull(loginCodes.consumedAt)))
    .returning({ id: loginCodes.id });
  if (!consumed) throw invalid();
  return code;
}

/**
 * Signs in with a code: a known e-mail gets a session, an unknown one a signup ticket — except an
 * address of ADMIN_EMAILS: the founder's account is created at once and signed in, without the
 * customer details form (decision 076).
 */
export async function verifyLoginCode(deps: AppDeps, input: { email: string; otp: string } & SignInContext) {
  const { email, otp } = input;
  const code = await consumeLoginCode(deps, email, otp);
  // A code mailed to confirm a deletion never signs in (docs/decisions/275-account-deletion-up-front.md).
  if (code.purpose === 'delete') throw invalid();

  const user = await findUserByEmail(deps, email);
  if (user) {
    // A sign-up code only ever proves a new address; it never opens an existing account.
    if (code.purpose === 'signup') throw badRequest('This e-mail already has an account. Please sign in instead.');
    const session = await signIn(deps, user, { userAgent: input.userAgent, ip: input.ip });
    return { success: true as const, ...session, isNewUser: false };
  }
  if (isOwnerEmail(deps, email)) {
    const session = await signIn(deps, await createOwnerAccount(deps, email), { userAgent: input.userAgent, ip: input.ip });
    return { success: true as const, ...session, isNewUser: false };
  }
  const signupTicket = await createSignupTicket(deps, { email });
  // An invited staff member's details form asks only a name (docs/decisions/276-staff-onboarding-and-payment-ids.md).
  return { success: true as const, signupTicket, isNewUser: true, ...((await isStaffEmail(deps.db, email)) ? { invitedStaff: true } : {}) };
}
