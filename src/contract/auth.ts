import { z } from 'zod';
import { EMAIL_MAX, isValidEmail, normalizeEmail, ONE_TIME_CODE_REGEX } from '../domain/validation.ts';
import { defineOperation } from './operation.ts';
import { passkeyIdParams } from './passkeys.ts';

// Spec §7 call table, accounts part. Field names are the spec's; what the spec leaves open
// (signupTicket, handoff, sign out everywhere) follows docs/architecture.md and decision 076.

export const emailSchema = z
  .string()
  .max(EMAIL_MAX + 20)
  .transform(normalizeEmail)
  .refine(isValidEmail, { message: 'Please enter a valid e-mail address.' });

/** The spec sends a placeholder location string; it is accepted and ignored. */
const location = z.string().max(200).optional();

export const sendOtpBody = z.object({ email: emailSchema, location });
export type SendOtpBody = z.input<typeof sendOtpBody>;

export const okResponse = z.object({ success: z.literal(true), message: z.string() });
export type OkResponse = z.infer<typeof okResponse>;

export const otpCreatedAtBody = z.object({ email: emailSchema });
export const otpCreatedAtResponse = z.object({
  /** When the latest code for this e-mail was created (ISO), or null. */
  createdAt: z.string().nullable(),
  /** Seconds the server waits between two codes (the spec's 20). */
  resendAfterSeconds: z.number().int(),
});
export type OtpCreatedAtResponse = z.infer<typeof otpCreatedAtResponse>;

export const verifyOtpBody = z.object({
  email: emailSchema,
  otp: z.string().trim().regex(ONE_TIME_CODE_REGEX, { message: 'The code has 6 digits.' }),
});
export type VerifyOtpBody = z.input<typeof verifyOtpBody>;

/** Known e-mail: a session token. Unknown e-mail: no token, a signup ticket for user/addUser. */
export const verifyOtpResponse = z.object({
  success: z.literal(true),
  token: z.string().optional(),
  userId: z.string().optional(),
  signupTicket: z.string().optional(),
  isNewUser: z.boolean(),
  /** With a signupTicket: the address is on the owner's staff list — the details form asks only a name (decision 276). */
  invitedStaff: z.boolean().optional(),
});
export type VerifyOtpResponse = z.infer<typeof verifyOtpResponse>;

export const verifyTokenResponse = z.object({ success: z.literal(true), userId: z.string() });
export type VerifyTokenResponse = z.infer<typeof verifyTokenResponse>;

export const socialProviders = ['google', 'microsoft'] as const;
export const socialProvider = z.enum(socialProviders);
export type SocialProvider = z.infer<typeof socialProvider>;

/**
 * auth/authLogin takes only something the server can verify: the one-time `handoff`
 * our OpenID callback gave the browser, or a provider-signed `id_token`. The spec's bare
 * {email, name, location} is refused with 400.
 */
export const authLoginBody = z
  .object({
    handoff: z.string().min(16).max(200).optional(),
    provider: socialProvider.optional(),
    id_token: z.string().min(16).max(8000).optional(),
    email: z.string().max(200).optional(),
    name: z.string().max(200).optional(),
    location,
  })
  .refine((b) => Boolean(b.handoff) || Boolean(b.provider && b.id_token), {
    message: 'Sign-in needs a credential from Google or Microsoft; an e-mail address alone is not accepted.',
    path: ['handoff'],
  });
export type AuthLoginBody = z.input<typeof authLoginBody>;

export const authLoginResponse = z.object({
  success: z.literal(true),
  provider: socialProvider,
  /** Set for a known account. */
  token: z.string().optional(),
  userId: z.string().optional(),
  /** Set for a first-time user: finish on enterDetails, then user/addUser. */
  signupTicket: z.string().optional(),
  email: z.string(),
  name: z.string().nullable(),
  /** With a signupTicket: the address is on the owner's staff list — the details form asks only a name (decision 276). */
  invitedStaff: z.boolean().optional(),
});
export type AuthLoginResponse = z.infer<typeof authLoginResponse>;

export const successResponse = z.object({ success: z.literal(true) });

/** Where the OpenID round trip returns (whitelisted, never a URL from the query). */
export const oidcReturnPaths = ['/login', '/signup', '/googleLogin', '/microsoftLogin'] as const;
export const oidcStartQuery = z.object({
  returnTo: z.enum(oidcReturnPaths).default('/login'),
  isPricing: z
    .enum(['0', '1', 'true', 'false'])
    .optional()
    .transform((v) => v === '1' || v === 'true'),
});
export const oidcProviderParams = z.object({ provider: socialProvider });
export const oidcCallbackQuery = z
  .object({
    code: z.string().max(2000).optional(),
    state: z.string().max(200).optional(),
    error: z.string().max(200).optional(),
  })
  .passthrough();

/** The profile the provider gave at the last sign-in (spec §3 "Social profiles"). */
export const socialProfileResponse = z.object({
  provider: socialProvider,
  id: z.string(),
  displayName: z.string().nullable(),
  givenName: z.string().nullable(),
  surname: z.string().nullable(),
  mail: z.string().nullable(),
  userPrincipalName: z.string().nullable(),
});
export type SocialProfileResponse = z.infer<typeof socialProfileResponse>;

// Operations (docs/decisions/280-contract-operations.md).

/** E-mail a sign-in code (also resend) */
export const postAuthSendLoginOtp = defineOperation({
  method: 'POST',
  path: '/api/v1/auth/sendLoginOtp',
  body: sendOtpBody,
  responses: { 200: okResponse },
});

/** E-mail a sign-up code */
export const postAuthSendSignupOtp = defineOperation({
  method: 'POST',
  path: '/api/v1/auth/sendSignupOtp',
  body: sendOtpBody,
  responses: { 200: okResponse },
});

/** Check a code: a session token for a known e-mail, a signupTicket for a new one */
export const postAuthVerifyOtp = defineOperation({
  method: 'POST',
  path: '/api/v1/auth/verifyOtp',
  body: verifyOtpBody,
  responses: { 200: verifyOtpResponse },
  secretAnswer: true,
});

/** Check the bearer token */
export const getAuthVerifyToken = defineOperation({
  method: 'GET',
  path: '/api/v1/auth/verifyToken',
  responses: { 200: verifyTokenResponse },
});

/** Google/Microsoft sign-in: exchange a handoff or a provider ID token */
export const postAuthAuthLogin = defineOperation({
  method: 'POST',
  path: '/api/v1/auth/authLogin',
  body: authLoginBody,
  responses: { 200: authLoginResponse },
  secretAnswer: true,
});

/** Sign out: revoke this session */
export const postAuthLogout = defineOperation({
  method: 'POST',
  path: '/api/v1/auth/logout',
  responses: { 200: successResponse },
});

/** Sign out everywhere: revoke every session of this user */
export const postAuthLogoutAll = defineOperation({
  method: 'POST',
  path: '/api/v1/auth/logoutAll',
  responses: { 200: successResponse },
});

/** The Google/Microsoft profile of the signed-in user (demo pages) */
export const getAuthProfileByProvider = defineOperation({
  method: 'GET',
  path: '/api/v1/auth/profile/:provider',
  params: oidcProviderParams,
  responses: { 200: socialProfileResponse },
});

/** Remove one of my passkeys */
export const deleteAuthPasskeysById = defineOperation({
  method: 'DELETE',
  path: '/api/v1/auth/passkeys/:id',
  params: passkeyIdParams,
  responses: { 200: successResponse },
});

/** When the latest code for an e-mail was created (drives the resend countdown) */
export const postUserGetOtpCreatedAt = defineOperation({
  method: 'POST',
  path: '/api/v1/user/getOtpCreatedAt',
  body: otpCreatedAtBody,
  responses: { 200: otpCreatedAtResponse },
});
