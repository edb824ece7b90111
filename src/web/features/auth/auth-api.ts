import {
  getAuthProfileByProvider,
  postAuthAuthLogin,
  postAuthLogoutAll,
  postAuthSendLoginOtp,
  postAuthSendSignupOtp,
  postAuthVerifyOtp,
  postUserGetOtpCreatedAt,
  type SocialProvider,
} from '../../../contract/auth.ts';
import { postUserAddUser, type AddUserBody } from '../../../contract/users.ts';
import { call } from '../../lib/call.ts';

// The accounts calls of spec §7, typed by the contract. The spec's placeholder location is sent as is.
const LOCATION = 'web';

export type CodePurpose = 'login' | 'signup';

export const sendCode = (purpose: CodePurpose, email: string) =>
  call(purpose === 'login' ? postAuthSendLoginOtp : postAuthSendSignupOtp, { body: { email, location: LOCATION } });

export const getOtpCreatedAt = (email: string) => call(postUserGetOtpCreatedAt, { body: { email } });

export const verifyOtp = (email: string, otp: string) => call(postAuthVerifyOtp, { body: { email, otp } });

export const addUser = (body: Omit<AddUserBody, 'location'>) => call(postUserAddUser, { body: { ...body, location: LOCATION } });

export const exchangeHandoff = (handoff: string) => call(postAuthAuthLogin, { body: { handoff, location: LOCATION } });

export const logoutEverywhere = () => call(postAuthLogoutAll);

export const getSocialProfile = (provider: SocialProvider) => call(getAuthProfileByProvider, { params: { provider } });

/** Where the server-side OpenID flow starts; a full-page navigation, never fetch. */
export function socialStartUrl(provider: SocialProvider, returnTo: string, isPricing = false) {
  const q = new URLSearchParams({ returnTo, ...(isPricing ? { isPricing: '1' } : {}) });
  return `/api/v1/auth/oidc/${provider}/start?${q}`;
}
