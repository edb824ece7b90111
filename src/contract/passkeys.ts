import { z } from 'zod';
import { defineOperation } from './operation.ts';

// Passkeys (WebAuthn) and the back office's step-up. The WebAuthn objects travel
// as the JSON of the WebAuthn Level 3 spec (what @simplewebauthn/browser produces and reads): the
// server checks what it needs and passes the rest to the verifier.

const b64url = z
  .string()
  .min(1)
  .max(16_384)
  .regex(/^[A-Za-z0-9_-]+={0,2}$/, { message: 'Expected base64url.' });

/** The browser's PublicKeyCredential as JSON (registration or assertion). */
export const webAuthnResponse = z.looseObject({
  id: b64url,
  rawId: b64url,
  type: z.literal('public-key'),
  response: z.looseObject({
    clientDataJSON: b64url,
    attestationObject: b64url.optional(),
    authenticatorData: b64url.optional(),
    signature: b64url.optional(),
    userHandle: b64url.optional(),
    transports: z.array(z.string().max(30)).max(10).optional(),
  }),
  authenticatorAttachment: z.string().max(30).optional(),
  clientExtensionResults: z.record(z.string(), z.unknown()).default({}),
});
export type WebAuthnResponse = z.infer<typeof webAuthnResponse>;

/** Options for navigator.credentials.create/get, as JSON; the challenge is single-use. */
export const webAuthnOptions = z.looseObject({ challenge: z.string() });
export type WebAuthnOptions = z.infer<typeof webAuthnOptions>;

export const PASSKEY_NAME_MAX = 60;

export const passkeySummary = z.object({
  id: z.string(),
  name: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
  /** Synced across the person's devices (a cloud passkey) or bound to one device. */
  backedUp: z.boolean(),
});
export type PasskeySummary = z.infer<typeof passkeySummary>;

export const passkeyListResponse = z.object({
  passkeys: z.array(passkeySummary),
  /** Unused recovery codes left (back-office accounts; 0 for others). */
  recoveryCodesLeft: z.number().int(),
});
export type PasskeyListResponse = z.infer<typeof passkeyListResponse>;

export const passkeyRegistrationVerifyBody = z.object({
  response: webAuthnResponse,
  name: z.string().trim().min(1).max(PASSKEY_NAME_MAX).optional(),
});
export type PasskeyRegistrationVerifyBody = z.input<typeof passkeyRegistrationVerifyBody>;

export const passkeyRegistrationVerifyResponse = z.object({
  success: z.literal(true),
  passkey: passkeySummary,
  /** Ten one-time codes, only when a back-office account adds its first passkey: shown once. */
  recoveryCodes: z.array(z.string()).optional(),
});
export type PasskeyRegistrationVerifyResponse = z.infer<typeof passkeyRegistrationVerifyResponse>;

export const passkeyIdParams = z.object({ id: z.uuid() });

export const passkeyLoginVerifyBody = z.object({ response: webAuthnResponse });
/** The same token as auth/verifyOtp gives. */
export const passkeyLoginVerifyResponse = z.object({ success: z.literal(true), token: z.string(), userId: z.string() });
export type PasskeyLoginVerifyResponse = z.infer<typeof passkeyLoginVerifyResponse>;

/** A passkey assertion, or (additive, decision 190) one of the ten recovery codes. */
export const stepUpVerifyBody = z
  .object({
    response: webAuthnResponse.optional(),
    recoveryCode: z.string().trim().min(8).max(40).optional(),
  })
  .refine((b) => Boolean(b.response) !== Boolean(b.recoveryCode), {
    message: 'Send either a passkey response or a recovery code.',
    path: ['response'],
  });
export type StepUpVerifyBody = z.input<typeof stepUpVerifyBody>;

export const stepUpVerifyResponse = z.object({
  success: z.literal(true),
  /** ISO time until which the back office accepts this session without asking again. */
  confirmedUntil: z.string(),
  /** Recovery codes left after this one was used (set when a recovery code confirmed). */
  recoveryCodesLeft: z.number().int().optional(),
});
export type StepUpVerifyResponse = z.infer<typeof stepUpVerifyResponse>;

// Operations (docs/decisions/280-contract-operations.md).

/** My passkeys, and how many recovery codes are left */
export const getAuthPasskeys = defineOperation({
  method: 'GET',
  path: '/api/v1/auth/passkeys',
  responses: { 200: passkeyListResponse },
});

/** Options for adding a passkey (navigator.credentials.create) */
export const postAuthPasskeysRegistrationOptions = defineOperation({
  method: 'POST',
  path: '/api/v1/auth/passkeys/registration/options',
  responses: { 200: webAuthnOptions },
});

/** Store the new passkey */
export const postAuthPasskeysRegistrationVerify = defineOperation({
  method: 'POST',
  path: '/api/v1/auth/passkeys/registration/verify',
  body: passkeyRegistrationVerifyBody,
  responses: { 200: passkeyRegistrationVerifyResponse },
  secretAnswer: true,
});

/** Options for signing in with a passkey (discoverable: the browser offers the passkeys it has) */
export const postAuthPasskeysLoginOptions = defineOperation({
  method: 'POST',
  path: '/api/v1/auth/passkeys/login/options',
  responses: { 200: webAuthnOptions },
});

/** Sign in with a passkey: the same session token as verifyOtp */
export const postAuthPasskeysLoginVerify = defineOperation({
  method: 'POST',
  path: '/api/v1/auth/passkeys/login/verify',
  body: passkeyLoginVerifyBody,
  responses: { 200: passkeyLoginVerifyResponse },
  secretAnswer: true,
});

/** Options for confirming this session with one of the account's passkeys */
export const postAuthStepUpOptions = defineOperation({
  method: 'POST',
  path: '/api/v1/auth/step-up/options',
  responses: { 200: webAuthnOptions },
});

/** Confirm this session with a passkey or a one-time recovery code */
export const postAuthStepUpVerify = defineOperation({
  method: 'POST',
  path: '/api/v1/auth/step-up/verify',
  body: stepUpVerifyBody,
  responses: { 200: stepUpVerifyResponse },
});
