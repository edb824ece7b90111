import { randomBytes } from 'node:crypto';
import { and, count, desc, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import type { AppDeps } from '../../deps.ts';
import { emailChangeCodes } from '../../db/schema/account-security.ts';
import { users } from '../../db/schema/platform.ts';
import { badRequest, conflict, forbidden, tooManyRequests, unauthorized } from '../../lib/app-error.ts';
import { isUniqueViolation } from '../../lib/db-errors.ts';
import { hashCode, randomCode, sameHash } from '../auth/secrets.ts';
import { type SessionUser, userChanged } from '../auth/sessions.ts';
import { findUserByEmail } from '../auth/sign-in.ts';
import { renderEmail } from '../mail/render-email.ts';
import { toUserProfile } from './user-profile.ts';

// Changing one's e-mail (decision 193). The new address must prove itself with a
// six-digit code, exactly like a sign-in code: crypto-random, stored salted and hashed, ten minutes,
// five tries counted before the comparison, one use. The answer to the request never says whether
// the address already has an account: its mailbox learns that, nobody else. The old address is told
// once the change is made, so a stolen session cannot quietly move the account away.

export const EMAIL_CHANGE_TTL_MINUTES = 10;
export const EMAIL_CHANGE_MAX_TRIES = 5;
const HOUR_MS = 3600_000;
/** The hash binds the code to the account and the address it was sent to. */
const purposeOf = (userId: string) => `email-change:${userId}`;

export const EMAIL_CHANGE_SENT = 'If the address can receive mail, a code is on its way to it. Enter it here to finish the change.';

/**
 * The owner's address is ADMIN_EMAILS and a staff member's is the one the owner invited: the
 * back office's identity is set by the owner, not by the session that happens to be open.
 */
function assertMayChangeEmail(user: SessionUser) {
  if (user.role !== 'customer') {
    throw forbidden(
      'The e-mail of a back-office account is set by the owner (ADMIN_EMAILS, or the staff list). It cannot be changed here.',
    );
  }
}

const countSince = async (deps: AppDeps, where: ReturnType<typeof and>) =>
  (await deps.db.select({ n: count() }).from(emailChangeCodes).where(where))[0]?.n ?? 0;

/** 20 s between two codes of one account; hourly caps per account, per new address and per network. */
async function assertSendAllowed(deps: AppDeps, userId: string, newEmail: string, ip: string) {
  const { OTP_RESEND_SECONDS, OTP_MAX_PER_EMAIL_HOUR, OTP_MAX_PER_IP_HOUR } = deps.config;
  const [last] = await deps.db
    .select({ createdAt: emailChangeCodes.createdAt })
    .from(emailChangeCodes)
    .where(eq(emailChangeCodes.userId, userId))
    .orderBy(desc(emailChangeCodes.createdAt))
    .limit(1);
  if (last) {
    const wait = Math.ceil((last.createdAt.getTime() + OTP_RESEND_SECONDS * 1000 - Date.now()) / 1000);
    if (wait > 0) throw tooManyRequests(`Please wait ${wait} second${wait === 1 ? '' : 's'} before requesting a new code.`);
  }
  const since = new Date(Date.now() - HOUR_MS);
  if ((await countSince(deps, and(eq(emailChangeCodes.userId, userId), gt(emailChangeCodes.createdAt, since)))) >= OTP_MAX_PER_EMAIL_HOUR) {
    throw tooManyRequests('Too many e-mail change codes were requested for your account. Please try again in an hour.');
  }
  if (
    (await countSince(deps, and(eq(emailChangeCodes.newEmail, newEmail), gt(emailChangeCodes.createdAt, since)))) >= OTP_MAX_PER_EMAIL_HOUR
  ) {
    throw tooManyRequests('Too many codes were sent to this address. Please try again in an hour.');
  }
  if ((await countSince(deps, and(eq(emailChangeCodes.ip, ip), gt(emailChangeCodes.createdAt, since)))) >= OTP_MAX_PER_IP_HOUR) {
    throw tooManyRequests('Too many codes were requested from your network. Please try again later.');
  }
}

/**
 * Mails a code to the new address, retiring the account's earlier codes. When the address already
 * has an account, that mailbox gets a notice instead of a code (the answer here is the same), so
 * its owner knows, the requester learns nothing, and no code for a taken address exists.
 */
export async function requestEmailChange(deps: AppDeps, user: SessionUser, newEmail: string, ip: string) {
  assertMayChangeEmail(user);
  if (newEmail === user.email) throw badRequest('This is already your e-mail address.');
  await assertSendAllowed(deps, user.id, newEmail, ip);
  const taken = Boolean(await findUserByEmail(deps, newEmail));
  const code = randomCode();
  const salt = randomBytes(16).toString('hex');
  const now = new Date();
  const brand = deps.config.BRAND_NAME;
  // The code and its mail in one transaction (docs/decisions/340-mails-in-their-transaction.md).
  await deps.events.transaction(async (tx) => {
    await tx
      .update(emailChangeCodes)
      .set({ consumedAt: now })
      .where(and(eq(emailChangeCodes.userId, user.id), isNull(emailChangeCodes.consumedAt)));
    await tx.insert(emailChangeCodes).values({
      userId: user.id,
      newEmail,
      // A taken address gets no code: its row is hashed from a secret nobody holds, so confirming
      // answers exactly as for a wrong code — the confirmation cannot tell that the address is taken.
      codeHash: hashCode(salt, newEmail, purposeOf(user.id), taken ? randomBytes(16).toString('hex') : code),
      salt,
      ip: ip.slice(0, 100),
      expiresAt: new Date(now.getTime() + EMAIL_CHANGE_TTL_MINUTES * 60_000),
    });
    if (taken) await deps.mailer.enqueue(tx, newEmail, 'email-change-taken', takenEmail(brand));
    else await deps.mailer.enqueue(tx, newEmail, 'email-change-code', codeEmail(brand, code));
  });
  await deps.database.query(`delete from email_change_codes where created_at < now() - interval '1 day'`);
  return { success: true as const, message: EMAIL_CHANGE_SENT };
}

/**
 * Finishes the change with the code from the new mailbox: counted try, one use, then users.email
 * moves, the session caches drop the old value, and the old address is told. An address that got
 * an account in the meantime is a 409 (the code is spent: ask again for another address).
 */
export async function confirmEmailChange(deps: AppDeps, user: SessionUser, code: string) {
  assertMayChangeEmail(user);
  const [latest] = await deps.db
    .select({ id: emailChangeCodes.id })
    .from(emailChangeCodes)
    .where(and(eq(emailChangeCodes.userId, user.id), isNull(emailChangeCodes.consumedAt)))
    .orderBy(desc(emailChangeCodes.createdAt))
    .limit(1);
  if (!latest) throw badRequest('No e-mail change is waiting for a code. Please ask for a new code.');
  const [row] = await deps.db
    .update(emailChangeCodes)
    .set({ attempts: sql`${emailChangeCodes.attempts} + 1` })
    .where(
      and(
        eq(emailChangeCodes.id, latest.id),
        isNull(emailChangeCodes.consumedAt),
        lt(emailChangeCodes.attempts, EMAIL_CHANGE_MAX_TRIES),
        gt(emailChangeCodes.expiresAt, new Date()),
      ),
    )
    .returning();
  if (!row) throw badRequest('This code has expired or was tried too many times. Please request a new code.');
  if (!sameHash(hashCode(row.salt, row.newEmail, purposeOf(user.id), code), row.codeHash)) {
    if (row.attempts >= EMAIL_CHANGE_MAX_TRIES) throw badRequest('Too many wrong codes. Please request a new code.');
    throw badRequest('Invalid code. Please check the code in the e-mail sent to your new address.');
  }
  // The code is spent whatever happens next (its own statement: a taken address still uses it up).
  const [spent] = await deps.db
    .update(emailChangeCodes)
    .set({ consumedAt: new Date() })
    .where(and(eq(emailChangeCodes.id, row.id), isNull(emailChangeCodes.consumedAt)))
    .returning({ id: emailChangeCodes.id });
  if (!spent) throw badRequest('This code was already used. Please request a new code.');

  const oldEmail = user.email;
  // The new address and the notice to the old one commit together (docs/decisions/340-mails-in-their-transaction.md).
  let updated: SessionUser | undefined;
  try {
    updated = await deps.events.transaction(async (tx) => {
      const [changed] = await tx
        .update(users)
        .set({ email: row.newEmail, updatedAt: new Date() })
        .where(and(eq(users.id, user.id), isNull(users.deletedAt)))
        .returning();
      if (changed)
        await deps.mailer.enqueue(
          tx,
          oldEmail,
          'email-changed',
          changedEmail(deps.config.BRAND_NAME, deps.config.BRAND_EMAIL, row.newEmail),
        );
      return changed;
    });
  } catch (err) {
    if (isUniqueViolation(err)) {
      throw conflict('This e-mail address now belongs to another account, so it cannot become yours. Please choose another address.');
    }
    throw err;
  }
  if (!updated) throw unauthorized('This account no longer exists. Please sign in again.');
  userChanged(deps.db, user.id);
  return { success: true as const, user: toUserProfile(updated) };
}

/** "a***@example.com": enough for the owner to recognise, not a full address in someone's old mailbox. */
export function maskEmail(email: string): string {
  const [local = '', domain = ''] = email.split('@');
  return `${local.slice(0, 1)}***@${domain}`;
}

function codeEmail(brand: string, code: string) {
  return renderEmail(brand, {
    subject: `Your ${brand} e-mail change code: ${code}`,
    heading: 'Confirm your new e-mail',
    paragraphs: [
      `Use this code to make this address the e-mail of your ${brand} account.`,
      `It expires in ${EMAIL_CHANGE_TTL_MINUTES} minutes and works once. If you did not ask for it, ignore this e-mail: nothing changes without the code.`,
    ],
    highlight: code,
  });
}

function takenEmail(brand: string) {
  return renderEmail(brand, {
    subject: `${brand}: this address already has an account`,
    heading: 'This address already has an account',
    paragraphs: [
      `Someone signed in to ${brand} asked to move their account to this e-mail address, but an account with this address ` +
        `already exists, so nothing was changed.`,
      'If that was you, sign in with this address instead, or choose another address for the other account. If it was not you, you can ignore this e-mail.',
    ],
  });
}

function changedEmail(brand: string, contact: string, newEmail: string) {
  return renderEmail(brand, {
    subject: `${brand}: your account's e-mail was changed`,
    heading: 'Your e-mail was changed',
    paragraphs: [
      `The e-mail of your ${brand} account was changed to ${maskEmail(newEmail)}. From now on, sign-in codes go to the new ` +
        `address; this one no longer signs in.`,
      `If you did not make this change, write to us at once at ${contact}.`,
    ],
  });
}
