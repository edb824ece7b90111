import type {
  AuthLoginResponse,
  OkResponse,
  OtpCreatedAtResponse,
  SocialProfileResponse,
  SocialProvider,
  VerifyOtpResponse,
} from '../../../contract/auth.ts';
import type { AddUserBody, AddUserResponse } from '../../../contract/users.ts';
import { api } from '../../lib/api.ts';

// The accounts calls of spec §7, typed by the contract. The spec's placeholder location is sent as is.
const LOCATION = 'web';

export type CodePurpose = 'login' | 'signup';

export const sendCode = (purpose: CodePurpose, email: string) =>
  api<OkResponse>('POST', purpose === 'login' ? 'auth/sendLoginOtp' : 'auth/sendSignupOtp', { email, location: LOCATION });

export const getOtpCreatedAt = (email: string) => api<OtpCreatedAtResponse>('POST', 'user/getOtpCreatedAt', { email });

export const verifyOtp = (email: string, otp: string) => api<VerifyOtpResponse>('POST', 'auth/verifyOtp', { email, otp });

export const addUser = (body: Omit<AddUserBody, 'location'>) => api<AddUserResponse>('POST', 'user/addUser', { ...body, location: LOCATION });

export const exchangeHandoff = (handoff: string) => api<AuthLoginResponse>('POST', 'auth/authLogin', { handoff, location: LOCATION });

export const logoutEverywhere = () => api<{ success: true }>('POST', 'auth/logoutAll', {});

export const getSocialProfile = (provider: SocialProvider) => api<SocialProfileResponse>('GET', `auth/profile/${provider}`);

/** Where the server-side OpenID flow starts; a full-page navigation, never fetch. */
export function socialStartUrl(provider: SocialProvider, returnTo: string, isPricing = false) {
  const q = new URLSearchParams({ returnTo, ...(isPricing ? { isPricing: '1' } : {}) });
  return `/api/v1/auth/oidc/${provider}/start?${q}`;
}
