import type {
  PasskeyListResponse,
  PasskeyLoginVerifyResponse,
  PasskeyRegistrationVerifyResponse,
  StepUpVerifyResponse,
  WebAuthnOptions,
  WebAuthnResponse,
} from '../../../contract/passkeys.ts';
import { api } from '../../lib/api.ts';

// The passkey calls, typed by src/contract/passkeys.ts. No WebAuthn code
// here: the browser ceremonies live in passkey-ceremonies.ts, loaded only when one is started.

export const listPasskeys = () => api<PasskeyListResponse>('GET', 'auth/passkeys');

export const removePasskey = (id: string) => api<{ success: true }>('DELETE', `auth/passkeys/${encodeURIComponent(id)}`);

export const registrationOptions = () => api<WebAuthnOptions>('POST', 'auth/passkeys/registration/options', {});

export const registrationVerify = (response: WebAuthnResponse, name?: string) =>
  api<PasskeyRegistrationVerifyResponse>('POST', 'auth/passkeys/registration/verify', { response, ...(name ? { name } : {}) });

export const loginOptions = () => api<WebAuthnOptions>('POST', 'auth/passkeys/login/options', {});

export const loginVerify = (response: WebAuthnResponse) => api<PasskeyLoginVerifyResponse>('POST', 'auth/passkeys/login/verify', { response });

export const stepUpOptions = () => api<WebAuthnOptions>('POST', 'auth/step-up/options', {});

export const stepUpVerify = (body: { response: WebAuthnResponse } | { recoveryCode: string }) => api<StepUpVerifyResponse>('POST', 'auth/step-up/verify', body);
