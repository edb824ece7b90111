import {
  WebAuthnAbortService,
  browserSupportsWebAuthn,
  browserSupportsWebAuthnAutofill,
  startAuthentication,
  startRegistration,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
} from '@simplewebauthn/browser';
import type { WebAuthnResponse } from '../../../contract/passkeys.ts';
import { ApiError } from '../../lib/api.ts';
import { loginOptions, loginVerify, registrationOptions, registrationVerify, stepUpOptions, stepUpVerify } from './passkey-api.ts';

// The browser side of every passkey ceremony (decision 194). This module carries
// @simplewebauthn/browser, so callers on public pages (/login) import it dynamically.

/** What the ceremony gave back, as the contract's JSON (the library's types are a superset). */
const asContract = (r: unknown) => r as WebAuthnResponse;

export const passkeysSupported = () => browserSupportsWebAuthn();

/** Creates a passkey for the signed-in account; a back-office account's first one brings its recovery codes. */
export async function addPasskey(name?: string) {
  const optionsJSON = (await registrationOptions()) as unknown as PublicKeyCredentialCreationOptionsJSON;
  const response = await startRegistration({ optionsJSON });
  return registrationVerify(asContract(response), name?.trim() || undefined);
}

/** Signs in with a passkey: with the button (a modal prompt) or through the e-mail field's autofill. */
export async function signInWithPasskey(autofill: boolean) {
  if (autofill && !(await browserSupportsWebAuthnAutofill())) return null;
  const optionsJSON = (await loginOptions()) as unknown as PublicKeyCredentialRequestOptionsJSON;
  const response = await startAuthentication({ optionsJSON, useBrowserAutofill: autofill });
  return loginVerify(asContract(response));
}

/** Confirms the current session (the back office's step-up) with one of the account's passkeys. */
export async function confirmWithPasskey() {
  const optionsJSON = (await stepUpOptions()) as unknown as PublicKeyCredentialRequestOptionsJSON;
  const response = await startAuthentication({ optionsJSON });
  return stepUpVerify({ response: asContract(response) });
}

/** Ends a pending prompt (the autofill one when the visitor leaves /login or uses the button). */
export const cancelPasskeyPrompt = () => WebAuthnAbortService.cancelCeremony();

/** A prompt that was replaced or cancelled by the page itself: nothing to tell the person. */
export const wasAbortedByPage = (err: unknown) =>
  err instanceof Error && ((err as { code?: string }).code === 'ERROR_CEREMONY_ABORTED' || err.name === 'AbortError');

/**
 * One sentence for the screen for any failure of a ceremony: never a stack or a DOMException's
 * wording. `unknownPasskey` is what a refused sign-in assertion says.
 */
export function passkeyProblem(
  err: unknown,
  unknownPasskey = "We don't recognise that passkey. Sign in with the e-mail code, then add a passkey on your dashboard.",
): string {
  if (err instanceof ApiError) {
    if (err.status === 0 || err.status === 429) return err.message;
    if (err.status === 400 || err.status === 401 || err.status === 404) return unknownPasskey;
    return err.message;
  }
  if (!(err instanceof Error)) return 'Something went wrong with the passkey. Please try again.';
  const code = (err as { code?: string }).code;
  const cause = (err as { cause?: unknown }).cause;
  const name = cause instanceof Error ? cause.name : err.name;
  if (code === 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED' || name === 'InvalidStateError')
    return 'This device already holds a passkey for your account.';
  if (name === 'NotAllowedError' || code === 'ERROR_CEREMONY_ABORTED' || name === 'AbortError')
    return 'The passkey request was cancelled or timed out. Please try again.';
  if (/not supported/i.test(err.message) || name === 'NotSupportedError')
    return "This browser can't use passkeys. Please use the e-mail code instead.";
  if (name === 'SecurityError') return "Passkeys can't be used on this address.";
  return 'Something went wrong with the passkey. Please try again.';
}
