import { desc, eq } from 'drizzle-orm';
import type { BuiltApp } from '../../app.ts';
import { mailOutbox, sessions } from '../../db/schema/platform.ts';

// Helpers of the accounts API tests (read the code the way a person would: from the e-mail).

export async function lastCodeFor(t: BuiltApp, email: string): Promise<string> {
  const [mail] = await t.deps.db
    .select({ text: mailOutbox.textBody })
    .from(mailOutbox)
    .where(eq(mailOutbox.toAddress, email.trim().toLowerCase()))
    .orderBy(desc(mailOutbox.createdAt))
    .limit(1);
  const code = /\b(\d{6})\b/.exec(mail?.text ?? '')?.[1];
  if (!code) throw new Error(`no code mailed to ${email}`);
  return code;
}

export const sessionCount = async (t: BuiltApp) => (await t.deps.db.select({ id: sessions.id }).from(sessions)).length;

let ipCounter = 0;
/** A fresh client address per call, so per-IP limits of one test do not leak into the next. */
export const freshIp = () => `10.${Math.floor(++ipCounter / 250) % 250}.${ipCounter % 250}.${1 + (Math.floor(Math.random() * 250))}`;

export function post(t: BuiltApp, url: string, payload: unknown, ip = '127.0.0.1', headers: Record<string, string> = {}) {
  return t.app.inject({ method: 'POST', url: `/api/v1/${url}`, payload: payload as object, remoteAddress: ip, headers });
}
