import { generateAuthenticationOptions } from '@simplewebauthn/server';
import type { AppDeps } from '../../deps.ts';
import type { WebAuthnResponse } from '../../../contract/passkeys.ts';
import { badRequest, conflict } from '../../lib/app-error.ts';
import { confirmedUntil } from '../../lib/step-up.ts';
import { confirmSession, type AuthContext } from '../auth/sessions.ts';
import { CHALLENGE_TTL_MS, consumeChallenge, storeChallenge } from './challenges.ts';
import { findByCredentialId, passkeysOf } from './passkey-store.ts';
import { redeemRecoveryCode } from './recovery-codes.ts';
import { relyingParty } from './relying-party.ts';
import { verifyAssertion } from './verify-assertion.ts';

// The step-up (decision 190): the signed-in person proves again, with one of their own passkeys
// or a recovery code, that they are who the session says. Any account may do it (a customer
// confirms the deletion of their account this way); the back office requires it.

/** Options naming only this account's passkeys, bound to this session. */
export async function stepUpOptions(deps: AppDeps, auth: AuthContext) {
  const mine = await passkeysOf(deps.db, auth.user.id);
  if (!mine.length) throw conflict('This account has no passkey yet. Add one first.');
  const options = await generateAuthenticationOptions({
    rpID: relyingParty(deps.config).id,
    allowCredentials: mine.map((p) => ({ id: p.credentialId, transports: p.transports })),
    userVerification: 'preferred',
    timeout: CHALLENGE_TTL_MS,
  });
  await storeChallenge(deps.db, options.challenge, 'step-up', { userId: auth.user.id, sessionId: auth.sessionId });
  // A plain object: the route answers it as the contract's open WebAuthn options JSON.
  return { ...options };
}

async function confirm(deps: AppDeps, auth: AuthContext) {
  const at = new Date();
  await confirmSession(deps.db, auth.sessionId, at);
  return confirmedUntil(deps.config, at).toISOString();
}

/** Confirms the current session with a passkey assertion. */
export async function stepUpWithPasskey(deps: AppDeps, auth: AuthContext, response: WebAuthnResponse) {
  if (!response.response.authenticatorData || !response.response.signature)
    throw badRequest('This is not a passkey confirmation (the signature is missing).');
  const expectedChallenge = await consumeChallenge(deps.db, response.response.clientDataJSON, 'step-up', {
    userId: auth.user.id,
    sessionId: auth.sessionId,
  });
  // Only the account's own passkeys: someone else's valid passkey proves nothing about this session.
  const passkey = await findByCredentialId(deps.db, response.id, auth.user.id);
  if (!passkey) throw badRequest('This passkey does not belong to your account.');
  await verifyAssertion(deps, passkey, response, expectedChallenge);
  return { success: true as const, confirmedUntil: await confirm(deps, auth) };
}

/** Confirms the current session with one of the account's one-time recovery codes. */
export async function stepUpWithRecoveryCode(deps: AppDeps, auth: AuthContext, code: string, ip: string) {
  const left = await redeemRecoveryCode(deps.db, auth.user.id, ip, code);
  deps.log.warn({ userId: auth.user.id, recoveryCodesLeft: left }, 'a recovery code confirmed a session');
  return { success: true as const, confirmedUntil: await confirm(deps, auth), recoveryCodesLeft: left };
}
