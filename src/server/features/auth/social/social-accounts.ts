import { and, eq, sql } from 'drizzle-orm';
import type { SocialProvider, SocialProfileResponse } from '../../../../contract/auth.ts';
import type { AppDeps } from '../../../deps.ts';
import { identities, type SocialProfile } from '../../../db/schema/accounts.ts';
import { badRequest, notFound } from '../../../lib/app-error.ts';
import type { IdClaims } from '../../../integrations/oidc/oidc-client.ts';
import { findUserByEmail, findUserById } from '../sign-in.ts';
import type { SessionUser } from '../sessions.ts';
import type { PendingIdentity } from '../signup-tickets.ts';

// Microsoft's personal-account tenant: its e-mail addresses are verified by Microsoft.
const MSA_TENANT = '9188040d-6c67-4c5b-b112-36a304b66dad';

const str = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim().slice(0, 200) : undefined);

/** Spec §3 "Social profiles": the fields the demo pages show, from the verified claims. */
export function profileFromClaims(claims: IdClaims): SocialProfile {
  const entries = {
    id: str(claims.oid) ?? claims.sub,
    displayName: str(claims.name),
    givenName: str(claims.given_name),
    surname: str(claims.family_name),
    mail: str(claims.email),
    userPrincipalName: str(claims.preferred_username) ?? str(claims.email),
  };
  return Object.fromEntries(Object.entries(entries).filter(([, v]) => v !== undefined)) as SocialProfile;
}

/**
 * Only an address the provider vouches for may link to, or create, an account keyed by e-mail;
 * see docs/decisions/022-social-sign-in.md.
 */
export function verifiedEmail(provider: SocialProvider, claims: IdClaims): string | null {
  const email = str(claims.email)?.toLowerCase();
  if (!email) return null;
  const verified =
    claims.email_verified === true ||
    claims.email_verified === 'true' ||
    (provider === 'microsoft' && (claims.xms_edov === true || claims.tid === MSA_TENANT));
  return verified ? email : null;
}

export type SocialResolution = { user: SessionUser } | { email: string; identity: PendingIdentity };

/** Finds the account by (provider, subject), else links the account of the same verified e-mail. */
export async function resolveSocialAccount(deps: AppDeps, provider: SocialProvider, claims: IdClaims): Promise<SocialResolution> {
  const profile = profileFromClaims(claims);
  const [linked] = await deps.db
    .select({ userId: identities.userId })
    .from(identities)
    .where(and(eq(identities.provider, provider), eq(identities.subject, claims.sub)))
    .limit(1);
  if (linked) {
    await deps.db
      .update(identities)
      .set({ profile, email: profile.mail ?? null, updatedAt: new Date() })
      .where(and(eq(identities.provider, provider), eq(identities.subject, claims.sub)));
    const user = await findUserById(deps, linked.userId);
    if (user) return { user };
  }
  const label = provider === 'google' ? 'Google' : 'Microsoft';
  const email = verifiedEmail(provider, claims);
  if (!email) throw badRequest(`Your ${label} account did not share a verified e-mail address. Please sign in with an e-mail code.`);
  const user = await findUserByEmail(deps, email);
  if (user) {
    await deps.db
      .insert(identities)
      .values({ userId: user.id, provider, subject: claims.sub, email, profile })
      .onConflictDoUpdate({
        target: [identities.provider, identities.subject],
        set: { profile, email, updatedAt: sql`now()` },
      });
    return { user };
  }
  return { email, identity: { provider, subject: claims.sub, name: profile.displayName ?? null, profile } };
}

export async function getSocialProfile(deps: AppDeps, userId: string, provider: SocialProvider): Promise<SocialProfileResponse> {
  const [row] = await deps.db
    .select()
    .from(identities)
    .where(and(eq(identities.userId, userId), eq(identities.provider, provider)))
    .orderBy(sql`${identities.updatedAt} desc`)
    .limit(1);
  if (!row) throw notFound(`No ${provider === 'google' ? 'Google' : 'Microsoft'} account is linked to you.`);
  const p = row.profile;
  return {
    provider,
    id: p.id ?? row.subject,
    displayName: p.displayName ?? null,
    givenName: p.givenName ?? null,
    surname: p.surname ?? null,
    mail: p.mail ?? row.email ?? null,
    userPrincipalName: p.userPrincipalName ?? null,
  };
}
