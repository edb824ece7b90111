import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';

// Every secret we hand out (session token, signup ticket, handoff, OAuth state) is 256 random
// bits and only its SHA-256 is stored; a 6-digit code is salted because its space is small.

export const randomToken = () => randomBytes(32).toString('base64url');

export const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

/** Six digits from the crypto generator, leading zeros kept. */
export const randomCode = () => randomInt(0, 1_000_000).toString().padStart(6, '0');

export const hashCode = (salt: string, email: string, purpose: string, code: string) => sha256(`${salt}:${purpose}:${email}:${code}`);

export function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && timingSafeEqual(x, y);
}
