import { WebAuthnError } from '@simplewebauthn/browser';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../lib/api.ts';
import { passkeyProblem, wasAbortedByPage } from './passkey-ceremonies.ts';

// What a person reads when a passkey ceremony fails (decision 194): one plain sentence, never the
// wording of a DOMException or a stack.
const domError = (
  name: string,
  message = 'The operation either timed out or was not allowed. See: https://www.w3.org/TR/webauthn-2/#sctn-privacy-considerations-client.',
) => Object.assign(new Error(message), { name });

describe('passkeyProblem', () => {
  it('says a refused sign-in passkey is unknown here, and how to get in anyway', () => {
    expect(passkeyProblem(new ApiError(400, 'BAD_REQUEST', 'Unknown credential abc'))).toMatch(
      /^We don't recognise that passkey\. Sign in with the e-mail code/,
    );
    expect(passkeyProblem(new ApiError(401, 'UNAUTHORIZED', 'x'), 'Other words.')).toBe('Other words.');
  });

  it("keeps the server's own sentence for a wait, the network and refusals with a reason", () => {
    expect(passkeyProblem(new ApiError(429, 'RATE_LIMITED', 'Please wait 30 seconds.'))).toBe('Please wait 30 seconds.');
    expect(passkeyProblem(new ApiError(0, 'NETWORK', 'Network error. Please check your connection and try again.'))).toMatch(
      /^Network error/,
    );
    expect(passkeyProblem(new ApiError(409, 'CONFLICT', 'This is your only passkey.'))).toBe('This is your only passkey.');
  });

  it('turns a cancelled or timed-out prompt into a plain sentence', () => {
    const cancelled = new WebAuthnError({ message: 'x', code: 'ERROR_PASSTHROUGH_SEE_CAUSE_PROPERTY', cause: domError('NotAllowedError') });
    expect(passkeyProblem(cancelled)).toBe('The passkey request was cancelled or timed out. Please try again.');
    expect(passkeyProblem(domError('NotAllowedError'))).toBe('The passkey request was cancelled or timed out. Please try again.');
  });

  it('says when this device already holds a passkey of the account', () => {
    const again = new WebAuthnError({
      message: 'x',
      code: 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED',
      cause: domError('InvalidStateError'),
    });
    expect(passkeyProblem(again)).toBe('This device already holds a passkey for your account.');
  });

  it('never shows a stack or an unknown message', () => {
    const odd = new Error('TypeError: cannot read properties of undefined\n    at startAuthentication (index.js:1:1)');
    expect(passkeyProblem(odd)).toBe('Something went wrong with the passkey. Please try again.');
    expect(passkeyProblem('boom')).toBe('Something went wrong with the passkey. Please try again.');
    expect(passkeyProblem(new Error('WebAuthn is not supported in this browser'))).toMatch(/can't use passkeys/);
  });
});

describe('wasAbortedByPage', () => {
  it('is true for the prompt the page replaced or ended, false for a person cancelling', () => {
    expect(wasAbortedByPage(new WebAuthnError({ message: 'x', code: 'ERROR_CEREMONY_ABORTED', cause: domError('AbortError') }))).toBe(true);
    expect(wasAbortedByPage(domError('AbortError'))).toBe(true);
    expect(wasAbortedByPage(domError('NotAllowedError'))).toBe(false);
  });
});
