import { verifyAuthenticationResponse, type AuthenticationResponseJSON } from '@simplewebauthn/server';
import { eq, sql } from 'drizzle-orm';
import type { AppDeps } from '../../deps.ts';
import { passkeys } from '../../db/schema/account-security.ts';
import type { WebAuthnResponse } from '../../../contract/passkeys.ts';
import { badRequest } from '../../lib/app-error.ts';
import type { PasskeyRow } from './passkey-store.ts';
import { relyingParty } from './relying-party.ts';

/**
 * Checks a passkey assertion against the stored public key: origin and RP id from PUBLIC_URL, the
 * consumed challenge, user presence, and a signature counter that must have gone up (the library
 * refuses one that did not, unless the authenticator keeps none: always 0). Then stores the new
 * counter and when the passkey was used.
 */
export async function verifyAssertion(deps: AppDeps, passkey: PasskeyRow, response: WebAuthnResponse, expectedChallenge: string) {
  const rp = relyingParty(deps.config);
  let result;
  try {
    result = await verifyAuthenticationResponse({
      response: response as unknown as AuthenticationResponseJSON,
      expectedChallenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      credential: {
        id: passkey.credentialId,
        publicKey: Buffer.from(passkey.publicKey, 'base64url'),
        counter: passkey.counter,
        transports: passkey.transports,
      },
      // 'preferred' in the options: a security key without a PIN still proves possession.
      requireUserVerification: false,
    });
  } catch (err) {
    deps.log.info({ err: (err as Error).message, passkeyId: passkey.id }, 'passkey assertion refused');
    throw badRequest('The passkey could not be verified. Please try again.');
  }
  if (!result.verified) throw badRequest('The passkey could not be verified. Please try again.');
  const { newCounter, credentialBackedUp } = result.authenticationInfo;
  await deps.db
    .update(passkeys)
    // greatest(): two assertions verified at once must not leave the lower counter stored.
    .set({ counter: sql`greatest(${passkeys.counter}, ${newCounter})`, backedUp: credentialBackedUp, lastUsedAt: new Date() })
    .where(eq(passkeys.id, passkey.id));
}
