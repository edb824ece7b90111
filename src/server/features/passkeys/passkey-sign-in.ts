import { generateAuthenticationOptions } from '@simplewebauthn/server';
import type { AppDeps } from '../../deps.ts';
import type { WebAuthnResponse } from '../../../contract/passkeys.ts';
import { badRequest } from '../../lib/app-error.ts';
import { findUserById, signIn } from '../auth/sign-in.ts';
import { CHALLENGE_TTL_MS, consumeChallenge, storeChallenge } from './challenges.ts';
import { findByCredentialId } from './passkey-store.ts';
import { userHandleOf } from './registration.ts';
import { relyingParty } from './relying-party.ts';
import { verifyAssertion } from './verify-assertion.ts';

const UNKNOWN = 'This passkey is not registered here (it may have been removed). Please sign in with an e-mail code.';

/**
 * Options for a discoverable sign-in: no allowCredentials, so the browser offers whichever passkey
 * the person has for this site, also in the e-mail field's autofill (conditional mediation).
 */
export async function loginOptions(deps: AppDeps) {
  const options = await generateAuthenticationOptions({
    rpID: relyingParty(deps.config).id,
    userVerification: 'preferred',
    timeout: CHALLENGE_TTL_MS,
  });
  await storeChallenge(deps.db, options.challenge, 'login');
  // A plain object: the route answers it as the contract's open WebAuthn options JSON.
  return { ...options };
}

/**
 * Signs in with a passkey: the challenge is consumed first (a replayed assertion finds it used),
 * the passkey found by its credential id, the signature and counter checked; the session starts
 * confirmed for the back office (decision 190) and is the same kind of token verifyOtp gives.
 */
export async function loginVerify(deps: AppDeps, response: WebAuthnResponse, context: { userAgent?: string; ip: string }) {
  if (!response.response.authenticatorData || !response.response.signature)
    throw badRequest('This is not a passkey sign-in (the signature is missing).');
  const expectedChallenge = await consumeChallenge(deps.db, response.response.clientDataJSON, 'login');
  const passkey = await findByCredentialId(deps.db, response.id);
  if (!passkey) throw badRequest(UNKNOWN);
  // The authenticator names the account the credential was made for; it must be the passkey's owner.
  const handle = response.response.userHandle;
  if (handle && handle !== userHandleOf(passkey.userId).toString('base64url')) throw badRequest(UNKNOWN);
  await verifyAssertion(deps, passkey, response, expectedChallenge);
  const user = await findUserById(deps, passkey.userId);
  if (!user || user.deletedAt) throw badRequest('This account was deleted.');
  const session = await signIn(deps, user, { userAgent: context.userAgent, ip: context.ip, confirmed: true });
  return { success: true as const, ...session };
}
