import { and, eq, gt, isNull } from 'drizzle-orm';
import type { SocialProvider } from '../../../../contract/auth.ts';
import type { AppDeps } from '../../../deps.ts';
import { socialHandoffs } from '../../../db/schema/accounts.ts';
import { badRequest } from '../../../lib/app-error.ts';
import { randomToken, sha256 } from '../secrets.ts';
import type { SocialResolution } from './social-accounts.ts';

// The callback does not put a session token in a URL. It leaves a one-time, 2-minute handoff in
// the URL fragment (never sent to servers or logs); the page trades it through auth/authLogin.
const HANDOFF_TTL_MS = 2 * 60_000;

export async function createHandoff(deps: AppDeps, provider: SocialProvider, subject: string, r: SocialResolution) {
  const token = randomToken();
  const base = { tokenHash: sha256(token), provider, subject, expiresAt: new Date(Date.now() + HANDOFF_TTL_MS) };
  await deps.db
    .insert(socialHandoffs)
    .values(
      'user' in r
        ? { ...base, email: r.user.email, name: r.user.name, userId: r.user.id }
        : { ...base, email: r.email, name: r.identity.name, profile: r.identity.profile },
    );
  return token;
}

export async function consumeHandoff(deps: AppDeps, token: string) {
  const [row] = await deps.db
    .update(socialHandoffs)
    .set({ usedAt: new Date() })
    .where(and(eq(socialHandoffs.tokenHash, sha256(token)), isNull(socialHandoffs.usedAt), gt(socialHandoffs.expiresAt, new Date())))
    .returning();
  if (!row) throw badRequest('This sign-in has expired. Please sign in again.');
  return row;
}
