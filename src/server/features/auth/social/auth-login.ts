import type { z } from 'zod';
import type { authLoginBody, AuthLoginResponse, SocialProvider } from '../../../../contract/auth.ts';
import type { AppDeps } from '../../../deps.ts';
import { badRequest, unauthorized } from '../../../lib/app-error.ts';
import { oidcSettings } from '../../../integrations/oidc/oidc-client.ts';
import { IdTokenError, verifyIdToken } from '../../../integrations/oidc/verify-id-token.ts';
import { identities } from '../../../db/schema/accounts.ts';
import { createOwnerAccount, isOwnerEmail, isStaffEmail } from '../admin-role.ts';
import { findUserById, signIn, type SignInContext } from '../sign-in.ts';
import { createSignupTicket } from '../signup-tickets.ts';
import { consumeHandoff } from './handoffs.ts';
import { resolveSocialAccount, type SocialResolution } from './social-accounts.ts';

type Body = z.output<typeof authLoginBody>;

/** auth/authLogin: a verified provider credential in, a session (or a signup ticket) out. */
export async function authLogin(deps: AppDeps, body: Body, client: SignInContext = {}): Promise<AuthLoginResponse> {
  if (body.handoff) {
    const h = await consumeHandoff(deps, body.handoff);
    const user = h.userId ? await findUserById(deps, h.userId) : undefined;
    const resolution: SocialResolution = user
      ? { user }
      : { email: h.email, identity: { provider: h.provider, subject: h.subject, name: h.name, profile: h.profile } };
    return finish(deps, h.provider, resolution, client);
  }
  const provider = body.provider as SocialProvider;
  const settings = oidcSettings(deps.config, provider);
  if (!settings) throw badRequest(`${provider === 'google' ? 'Google' : 'Microsoft'} sign-in is not configured.`);
  let claims;
  try {
    claims = await verifyIdToken(settings, body.id_token!);
  } catch (err) {
    if (err instanceof IdTokenError) throw unauthorized(`The ${provider} sign-in could not be verified (${err.message}).`);
    throw err;
  }
  return finish(deps, provider, await resolveSocialAccount(deps, provider, claims), client);
}

async function finish(deps: AppDeps, provider: SocialProvider, r: SocialResolution, client: SignInContext): Promise<AuthLoginResponse> {
  if ('user' in r) {
    const session = await signIn(deps, r.user, { userAgent: client.userAgent, ip: client.ip });
    return { success: true, provider, ...session, email: r.user.email, name: r.user.name };
  }
  if (isOwnerEmail(deps, r.email)) {
    // The founder's first sign-in skips the customer details form (decision 076).
    const user = await createOwnerAccount(deps, r.email, r.identity.name);
    await deps.db
      .insert(identities)
      .values({
        userId: user.id,
        provider: r.identity.provider,
        subject: r.identity.subject,
        email: r.email,
        profile: r.identity.profile ?? {},
      })
      .onConflictDoNothing();
    const session = await signIn(deps, user, { userAgent: client.userAgent, ip: client.ip });
    return { success: true, provider, ...session, email: user.email, name: user.name };
  }
  const signupTicket = await createSignupTicket(deps, { email: r.email, identity: r.identity });
  // An invited staff member's details form asks only a name (docs/decisions/276-staff-onboarding-and-payment-ids.md).
  const invitedStaff = (await isStaffEmail(deps.db, r.email)) ? { invitedStaff: true } : {};
  return { success: true, provider, signupTicket, email: r.email, name: r.identity.name, ...invitedStaff };
}
