import { deleteAuthPasskeysById } from '../../../contract/auth.ts';
import {
  getAuthPasskeys,
  postAuthPasskeysLoginOptions,
  postAuthPasskeysLoginVerify,
  postAuthPasskeysRegistrationOptions,
  postAuthPasskeysRegistrationVerify,
  postAuthStepUpOptions,
  postAuthStepUpVerify,
  type WebAuthnResponse,
} from '../../../contract/passkeys.ts';
import { call } from '../../lib/call.ts';

// The passkey calls, typed by src/contract/passkeys.ts. No WebAuthn code
// here: the browser ceremonies live in passkey-ceremonies.ts, loaded only when one is started.

export const listPasskeys = () => call(getAuthPasskeys);

export const removePasskey = (id: string) => call(deleteAuthPasskeysById, { params: { id } });

export const registrationOptions = () => call(postAuthPasskeysRegistrationOptions);

export const registrationVerify = (response: WebAuthnResponse, name?: string) =>
  call(postAuthPasskeysRegistrationVerify, { body: { response, ...(name ? { name } : {}) } });

export const loginOptions = () => call(postAuthPasskeysLoginOptions);

export const loginVerify = (response: WebAuthnResponse) => call(postAuthPasskeysLoginVerify, { body: { response } });

export const stepUpOptions = () => call(postAuthStepUpOptions);

export const stepUpVerify = (body: { response: WebAuthnResponse } | { recoveryCode: string }) => call(postAuthStepUpVerify, { body });
