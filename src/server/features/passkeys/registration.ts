import { generateRegistrationOptions, verifyRegistrationResponse, type RegistrationResponseJSON } from '@simplewebauthn/server';
import { count, eq } from 'drizzle-orm';
import type { AppDeps } from '../../deps.ts';
import { passkeys } from '../../db/schema/account-security.ts';
import type { PasskeyRegistrationVerifyBody, PasskeyRegistrationVerifyResponse } from '../../../contract/passkeys.ts';
import { isBackOffice } from '../../../domain/roles.ts';
import { badRequest, conflict } from '../../lib/app-error.ts';
import { confirmSession, type AuthContext } from '../auth/sessions.ts';
import { withAccountLocked } from './account-lock.ts';
import { CHALLENGE_TTL_MS, consumeChallenge, storeChallenge } from './challenges.ts';
import { passkeysOf, toSummary } from './passkey-store.ts';
import { generateRecoveryCodes, storeRecoveryCodes } from './recovery-codes.ts';
import { relyingParty } from './relying-party.ts';
import { assertConfirmed, passkeysGuarded } from './step-up-rule.ts';

const ADD_ANOTHER = 'add another passkey';
const KNOWN_TRANSPORTS = new Set(['ble', 'cable', 'hybrid', 'internal', 'nfc', 'smart-card', 'usb']);

/** The WebAuthn user handle: the account id's bytes (no personal data, stable across e-mail changes). */
export const userHandleOf = (userId: string) => Buffer.from(userId, 'utf8');

/**
 * Options for navigator.credentials.create(): a discoverable credential if the authenticator can
 * (residentKey 'preferred', so it is a passkey the sign-in autofill offers), no attestation, and
 * the account's passkeys excluded so one authenticator is not registered twice.
 */
export async function registrationOptions(deps: AppDeps, auth: AuthContext) {
  const mine = await passkeysOf(deps.db, auth.user.id);
  if (mine.length && passkeysGuarded(deps.config, auth)) assertConfirmed(deps.config, auth, ADD_ANOTHER);
  const rp = relyingParty(deps.config);
  const options = await generateRegistrationOptions({
    rpName: rp.name,
    rpID: rp.id,
    userName: auth.user.email,
    userID: userHandleOf(auth.user.id),
    userDisplayName: auth.user.name ?? auth.user.email,
    timeout: CHALLENGE_TTL_MS,
    attestationType: 'none',
    excludeCredentials: mine.map((p) => ({ id: p.credentialId, transports: p.transports })),
    authenticatorSelection: { residentKey: 'preferred', userVerification: 'preferred' },
  });
  await storeChallenge(deps.db, options.challenge, 'registration', { userId: auth.user.id, sessionId: auth.sessionId });
  // A plain object: the route answers it as the contract's open WebAuthn options JSON.
  return { ...options };
}

async function verifyAttestation(deps: AppDeps, body: PasskeyRegistrationVerifyBody, expectedChallenge: string) {
  const rp = relyingParty(deps.config);
  try {
    const result = await verifyRegistrationResponse({
      response: body.response as unknown as RegistrationResponseJSON,
      expectedChallenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      requireUserVerification: false,
    });
    if (result.verified) return result.registrationInfo;
  } catch (err) {
    deps.log.info({ err: (err as Error).message }, 'passkey registration refused');
  }
  throw badRequest('The new passkey could not be verified. Please try again.');
}

/**
 * Stores a new passkey after checking the attestation against the consumed challenge. A back-office
 * account's first passkey also brings ten recovery codes (answered once) and confirms the session
 * (decision 190: adding it right after the e-mail code is the confirmation).
 */
export async function verifyRegistration(
  deps: AppDeps,
  auth: AuthContext,
  body: PasskeyRegistrationVerifyBody,
): Promise<PasskeyRegistrationVerifyResponse> {
  const { response } = body;
  if (!response.response.attestationObject) throw badRequest('This is not a passkey registration (attestationObject is missing).');
  const expectedChallenge = await consumeChallenge(deps.db, response.response.clientDataJSON, 'registration', {
    userId: auth.user.id,
    sessionId: auth.sessionId,
  });
  const info = await verifyAttestation(deps, body, expectedChallenge);
  const userId = auth.user.id;
  const backOffice = isBackOffice(auth.user.role);
  // scrypt takes a moment: hash the codes before taking the account's lock, when they will likely be needed.
  const fresh = backOffice && !(await passkeysOf(deps.db, userId)).length ? await generateRecoveryCodes(userId) : undefined;

  const outcome = await withAccountLocked(deps.db, userId, async (tx) => {
    const [before] = await tx.select({ n: count() }).from(passkeys).where(eq(passkeys.userId, userId));
    const existing = before?.n ?? 0;
    if (existing && passkeysGuarded(deps.config, auth)) assertConfirmed(deps.config, auth, ADD_ANOTHER);
    const [row] = await tx
      .insert(passkeys)
      .values({
        userId,
        credentialId: info.credential.id,
        publicKey: Buffer.from(info.credential.publicKey).toString('base64url'),
        counter: info.credential.counter,
        transports: (response.response.transports ?? []).filter((t) => KNOWN_TRANSPORTS.has(t)),
        deviceType: info.credentialDeviceType,
        backedUp: info.credentialBackedUp,
        name: body.name ?? `Passkey ${existing + 1}`,
      })
      .onConflictDoNothing({ target: passkeys.credentialId })
      .returning();
    if (!row) throw conflict('This passkey is already registered.');
    const first = existing === 0 && backOffice;
    let codes: string[] | undefined;
    if (first) {
      const set = fresh ?? (await generateRecoveryCodes(userId));
      await storeRecoveryCodes(tx, userId, set.hashes);
      codes = set.codes;
    }
    return { row, codes };
  });
  if (outcome.codes) await confirmSession(deps.db, auth.sessionId);
  return { success: true, passkey: toSummary(outcome.row), ...(outcome.codes ? { recoveryCodes: outcome.codes } : {}) };
}
