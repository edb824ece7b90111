import { randomInt, scrypt as scryptCallback, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';
import { and, count, eq, gt, isNull, lt } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { recoveryCodes } from '../../db/schema/account-security.ts';
import { recoveryCodeTries } from '../../db/schema/recovery-code-tries.ts';
import { badRequest, tooManyRequests } from '../../lib/app-error.ts';

// Ten one-time recovery codes per back-office account (decision 190): 10 characters of Crockford's
// base32 (50 bits) shown as XXXXX-XXXXX, only a scrypt hash stored. The hash is salted with the
// account, so one computation per try checks all of that account's codes, and a leaked table is
// too slow to brute-force.

export const RECOVERY_CODE_COUNT = 10;
export const MAX_WRONG_RECOVERY_TRIES = 5;
export const RECOVERY_TRY_WINDOW_MS = 15 * 60_000;

const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const scrypt = promisify(scryptCallback) as (password: string, salt: string, keylen: number, options: { N: number }) => Promise<Buffer>;

export function newRecoveryCode(): string {
  let raw = '';
  for (let i = 0; i < 10; i++) raw += ALPHABET[randomInt(ALPHABET.length)];
  return `${raw.slice(0, 5)}-${raw.slice(5)}`;
}

/** What the person typed, as it was generated: case, spaces and dashes ignored, O/I/L read as 0/1/1. */
export function normaliseRecoveryCode(input: string): string {
  return input
    .toUpperCase()
    .replace(/[^0-9A-Z]/g, '')
    .replace(/O/g, '0')
    .replace(/[IL]/g, '1');
}

export async function hashRecoveryCode(userId: string, code: string): Promise<string> {
  const key = await scrypt(normaliseRecoveryCode(code), `recovery:${userId}`, 32, { N: 1 << 14 });
  return key.toString('hex');
}

/** Ten fresh codes with their hashes (computed before any transaction: scrypt takes a while). */
export async function generateRecoveryCodes(userId: string) {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  return { codes, hashes: await Promise.all(codes.map((c) => hashRecoveryCode(userId, c))) };
}

/** Replaces the account's codes with these hashes (`db` may be a transaction). */
export async function storeRecoveryCodes(db: Db, userId: string, hashes: string[]) {
  await db.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
  await db.insert(recoveryCodes).values(hashes.map((codeHash) => ({ userId, codeHash })));
}

export async function recoveryCodesLeft(db: Db, userId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(recoveryCodes)
    .where(and(eq(recoveryCodes.userId, userId), isNull(recoveryCodes.usedAt)));
  return row?.n ?? 0;
}

const sameHex = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a, 'hex'), Buffer.from(b, 'hex'));

/**
 * Uses one recovery code: the try is recorded first and counted with the others of the last 15
 * minutes, per account and per address, so parallel guesses cannot get past five; a right code is
 * marked used in one UPDATE … WHERE used_at IS NULL (it never works twice) and its try forgotten.
 * Returns the number of unused codes left.
 */
export async function redeemRecoveryCode(db: Db, userId: string, ip: string, code: string): Promise<number> {
  const since = new Date(Date.now() - RECOVERY_TRY_WINDOW_MS);
  // Tries older than the window count for nothing.
  await db.delete(recoveryCodeTries).where(lt(recoveryCodeTries.createdAt, since));
  const [attempt] = await db
    .insert(recoveryCodeTries)
    .values({ userId, ip: ip.slice(0, 100) })
    .returning({ id: recoveryCodeTries.id });
  const [tries] = await db
    .select({ mine: count() })
    .from(recoveryCodeTries)
    .where(and(gt(recoveryCodeTries.createdAt, since), eq(recoveryCodeTries.userId, userId)));
  const [fromIp] = await db
    .select({ n: count() })
    .from(recoveryCodeTries)
    .where(and(gt(recoveryCodeTries.createdAt, since), eq(recoveryCodeTries.ip, ip.slice(0, 100))));
  if ((tries?.mine ?? 0) > MAX_WRONG_RECOVERY_TRIES || (fromIp?.n ?? 0) > MAX_WRONG_RECOVERY_TRIES) {
    throw tooManyRequests('Too many recovery code attempts. Please wait 15 minutes and try again.');
  }
  const hash = await hashRecoveryCode(userId, code);
  const unused = await db
    .select({ id: recoveryCodes.id, codeHash: recoveryCodes.codeHash })
    .from(recoveryCodes)
    .where(and(eq(recoveryCodes.userId, userId), isNull(recoveryCodes.usedAt)));
  const match = unused.find((c) => sameHex(c.codeHash, hash));
  const [used] = match
    ? await db
        .update(recoveryCodes)
        .set({ usedAt: new Date() })
        .where(and(eq(recoveryCodes.id, match.id), isNull(recoveryCodes.usedAt)))
        .returning({ id: recoveryCodes.id })
    : [];
  if (!used) throw badRequest('This recovery code is not valid or was already used.');
  // A right code is no guess: it does not count against the person.
  if (attempt) await db.delete(recoveryCodeTries).where(eq(recoveryCodeTries.id, attempt.id));
  return recoveryCodesLeft(db, userId);
}
