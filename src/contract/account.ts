import { z } from 'zod';
import { ADDRESS_MAX, isValidPhoneCode, NAME_MAX, ONE_TIME_CODE_REGEX, PHONE_DIGITS_REGEX, PHONE_MESSAGE } from '../domain/validation.ts';
import { emailSchema, okResponse, successResponse } from './auth.ts';
import { multiLine } from './text-policy.ts';
import { userProfile } from './users.ts';
import { defineOperation } from './operation.ts';

// Privacy self-service — correct, change e-mail, export, delete, sessions.

export const updateProfileBody = z
  .object({
    name: z.string().trim().min(1, { message: 'Please enter your name.' }).max(NAME_MAX).optional(),
    phone_code: z
      .string()
      .trim()
      .refine(isValidPhoneCode, { message: 'Please choose a country code.' })
      .transform((v) => v.replace(/^\+/, ''))
      .optional(),
    phone_number: z.string().trim().regex(PHONE_DIGITS_REGEX, { message: PHONE_MESSAGE }).optional(),
    address: multiLine(z.string().trim().min(1, { message: 'Please enter your address.' }).max(ADDRESS_MAX)).optional(),
  })
  .strict();
export type UpdateProfileBody = z.input<typeof updateProfileBody>;

export const profileResponse = z.object({ success: z.literal(true), user: userProfile });
export type ProfileResponse = z.infer<typeof profileResponse>;

export const emailChangeBody = z.object({ email: emailSchema });
export const emailChangeResponse = z.object({ success: z.literal(true), message: z.string() });
export const emailChangeConfirmBody = z.object({
  code: z.string().trim().regex(ONE_TIME_CODE_REGEX, { message: 'The code has 6 digits.' }),
});

export const deleteAccountBody = z.object({
  /** A fresh sign-in code (auth/sendLoginOtp), unless a passkey confirmed the session in the last 10 minutes. */
  code: z.string().trim().regex(ONE_TIME_CODE_REGEX, { message: 'The code has 6 digits.' }).optional(),
});
export const deleteAccountResponse = z.object({ success: z.literal(true) });

/**
 * GET /user/delete-account: what stops the deletion now, read by the dialog before it sends a code
 * (docs/decisions/275-account-deletion-up-front.md). Empty when the account can go.
 */
export const deletionBlocker = z.object({
  kind: z.enum(['order_in_progress', 'maintenance_plan', 'owner']),
  /** What blocks it and what to do, in the words the deletion's own refusal uses. */
  message: z.string(),
});
export type DeletionBlocker = z.infer<typeof deletionBlocker>;
export const deletionCheckResponse = z.object({ success: z.literal(true), blockers: z.array(deletionBlocker) });
export type DeletionCheckResponse = z.infer<typeof deletionCheckResponse>;

export const sessionSummary = z.object({
  id: z.string(),
  /** "Chrome on Windows", from the user agent. */
  device: z.string(),
  city: z.string().nullable(),
  createdAt: z.string(),
  lastSeenAt: z.string(),
  current: z.boolean(),
});
export type SessionSummary = z.infer<typeof sessionSummary>;
export const sessionListResponse = z.object({ sessions: z.array(sessionSummary) });
export type SessionListResponse = z.infer<typeof sessionListResponse>;
export const sessionIdParams = z.object({ id: z.uuid() });

/** GET /user/export answers application/zip (README.txt, data.json, invoices/, files/): decision 193. */
export const accountExportResponse = z.unknown().describe('application/zip');

// Operations (docs/decisions/280-contract-operations.md).

/** Download all my data: a ZIP of data.json, README.txt, invoice PDFs and order files */
export const getUserExport = defineOperation({
  method: 'GET',
  path: '/api/v1/user/export',
  binary: true,
  responses: { 200: accountExportResponse },
});

/** Where I am signed in: live sessions with device, city and last seen, newest first */
export const getAuthSessions = defineOperation({
  method: 'GET',
  path: '/api/v1/auth/sessions',
  responses: { 200: sessionListResponse },
});

/** Correct my name, phone (country code and number together) or address */
export const patchUserProfile = defineOperation({
  method: 'PATCH',
  path: '/api/v1/user/profile',
  body: updateProfileBody,
  responses: { 200: profileResponse },
});

/** E-mail a code to the new address (the same answer whether or not it has an account) */
export const postUserEmailChange = defineOperation({
  method: 'POST',
  path: '/api/v1/user/email-change',
  body: emailChangeBody,
  responses: { 200: emailChangeResponse },
});

/** Finish the e-mail change with the code from the new mailbox; the old address is told */
export const postUserEmailChangeConfirm = defineOperation({
  method: 'POST',
  path: '/api/v1/user/email-change/confirm',
  body: emailChangeConfirmBody,
  responses: { 200: profileResponse },
});

/** Delete my account (a fresh sign-in code, or a passkey confirmation in the last 10 minutes) */
export const postUserDeleteAccount = defineOperation({
  method: 'POST',
  path: '/api/v1/user/delete-account',
  body: deleteAccountBody,
  responses: { 200: deleteAccountResponse },
});

/** What stops deleting my account now (an order in progress, an active maintenance plan): empty when it can go */
export const getUserDeleteAccount = defineOperation({
  method: 'GET',
  path: '/api/v1/user/delete-account',
  responses: { 200: deletionCheckResponse },
});

/** E-mail the signed-in person a code that confirms deleting their account (it never signs in) */
export const postUserDeleteAccountCode = defineOperation({
  method: 'POST',
  path: '/api/v1/user/delete-account/code',
  responses: { 200: okResponse },
});

/** Sign one of my sessions out (its open sockets close at once); another user’s session is 404 */
export const deleteAuthSessionsById = defineOperation({
  method: 'DELETE',
  path: '/api/v1/auth/sessions/:id',
  params: sessionIdParams,
  responses: { 200: successResponse },
});
