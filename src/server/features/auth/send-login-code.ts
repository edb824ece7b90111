import { randomBytes } from 'node:crypto';
import { and, count, desc, eq, gt, isNull } from 'drizzle-orm';
import type { AppDeps } from '../../deps.ts';
import { loginCodes } from '../../db/schema/accounts.ts';
import { tooManyRequests } from '../../lib/app-error.ts';
import { renderEmail } from '../mail/render-email.ts';
import { hashCode, randomCode } from './secrets.ts';
import { findUserByEmail } from './sign-in.ts';

export const CODE_TTL_MINUTES = 10;
const HOUR_MS = 3600_000;

export type CodePurpose = 'login' | 'signup' | 'delete';

/** The latest code of an e-mail, used or not (for the resend countdown). */
export async function latestCodeCreatedAt(deps: AppDeps, email: string): Promise<Date | null> {
  const [row] = await deps.db
    .select({ createdAt: loginCodes.createdAt })
    .from(loginCodes)
    .where(eq(loginCodes.email, email))
    .orderBy(desc(loginCodes.createdAt))
    .limit(1);
  return row?.createdAt ?? null;
}

async function assertSendAllowed(deps: AppDeps, email: string, ip: string) {
  const { OTP_RESEND_SECONDS, OTP_MAX_PER_EMAIL_HOUR, OTP_MAX_PER_IP_HOUR } = deps.config;
  const last = await latestCodeCreatedAt(deps, email);
  if (last) {
    const wait = Math.ceil((last.getTime() + OTP_RESEND_SECONDS * 1000 - Date.now()) / 1000);
    if (wait > 0) throw tooManyRequests(`Please wait ${wait} second${wait === 1 ? '' : 's'} before requesting a new code.`);
  }
  const since = new Date(Date.now() - HOUR_MS);
  const [perEmail] = await deps.db
    .select({ n: count() })
    .from(loginCodes)
    .where(and(eq(loginCodes.email, email), gt(loginCodes.createdAt, since)));
  if ((perEmail?.n ?? 0) >= OTP_MAX_PER_EMAIL_HOUR) {
    throw tooManyRequests('Too many codes were requested for this e-mail. Please try again in an hour.');
  }
  const [perIp] = await deps.db
    .select({ n: count() })
    .from(loginCodes)
    .where(and(eq(loginCodes.ip, ip), gt(loginCodes.createdAt, since)));
  if ((perIp?.n ?? 0) >= OTP_MAX_PER_IP_HOUR) {
    throw tooManyRequests('Too many codes were requested from your network. Please try again later.');
  }
}

/**
 * Sends a fresh code and retires the previous ones. The caller answers the same whether or not
 * the account exists; only the mailbox owner learns which. A sign-up request for an
 * existing account gets a sign-in code instead, so nobody can use sign-up to take over an account.
 */
export async function sendLoginCode(deps: AppDeps, input: { email: string; purpose: CodePurpose; ip: string }) {
  const { email, ip } = input;
  await assertSendAllowed(deps, email, ip);
  const exists = Boolean(await findUserByEmail(deps, email));
  // A deletion code is asked for by the signed-in person (POST /user/delete-account/code) and only
  // ever confirms a deletion (docs/decisions/275-account-deletion-up-front.md).
  const purpose: CodePurpose = input.purpose === 'delete' ? 'delete' : input.purpose === 'signup' && !exists ? 'signup' : 'login';
  const code = randomCode();
  const salt = randomBytes(16).toString('hex');
  // Retired, and marked as retired by a newer code: typing it says so.
  const now = new Date();
  // The code and its mail commit together (docs/decisions/340-mails-in-their-transaction.md).
  await deps.events.transaction(async (tx) => {
    await tx
      .update(loginCodes)
      .set({ consumedAt: now, supersededAt: now })
      .where(and(eq(loginCodes.email, email), isNull(loginCodes.consumedAt)));
    await tx.insert(loginCodes).values({
      email,
      purpose,
      codeHash: hashCode(salt, email, purpose, code),
      salt,
      ip: ip.slice(0, 100),
      expiresAt: new Date(Date.now() + CODE_TTL_MINUTES * 60_000),
    });
    await deps.mailer.enqueue(tx, email, `otp-${purpose}`, codeEmail(deps.config.BRAND_NAME, code, input.purpose, exists));
  });
  await purgeOldSecrets(deps);
}

/** Codes older than a day no longer count for any limit; spent tickets and handoffs are useless. */
async function purgeOldSecrets(deps: AppDeps) {
  await deps.database.query(`delete from login_codes where created_at < now() - interval '1 day'`);
  await deps.database.query(`delete from signup_tickets where expires_at < now() - interval '1 day'`);
  await deps.database.query(`delete from social_handoffs where expires_at < now() - interval '1 day'`);
}

function codeEmail(brand: string, code: string, requested: CodePurpose, exists: boolean) {
  if (requested === 'delete') {
    return renderEmail(brand, {
      subject: `Confirm deleting your ${brand} account: ${code}`,
      heading: 'Confirm deleting your account',
      paragraphs: [
        `You asked to delete your ${brand} account. Enter this code in the dialog to delete it for good; deleting cannot be undone.`,
        `It expires in ${CODE_TTL_MINUTES} minutes and works once. It does not sign anyone in. If you did not ask for it, ` +
          `ignore this e-mail: your account stays as it is — and as someone may be signed in as you, sign out of every device on your account page.`,
      ],
      highlight: code,
    });
  }
  const intro =
    requested === 'signup' && exists
      ? `You asked to sign up, but you already have a ${brand} account. This code signs you in.`
      : requested === 'signup' || !exists
        ? `Use this code to confirm your e-mail address and create your ${brand} account.`
        : `Use this code to sign in to ${brand}.`;
  return renderEmail(brand, {
    subject: `Your ${brand} code: ${code}`,
    heading: exists ? 'Your sign-in code' : 'Confirm your e-mail',
    paragraphs: [
      intro,
      `It expires in ${CODE_TTL_MINUTES} minutes and works once. If you did not ask for it, ignore this e-mail: nobody can sign in without the code.`,
    ],
    highlight: code,
  });
}
