import { z } from 'zod';
import { ADDRESS_MAX, isValidPhoneCode, NAME_MAX, ONE_TIME_CODE_REGEX, PHONE_DIGITS_REGEX, PHONE_MESSAGE } from '../domain/validation.ts';
import { emailSchema } from './auth.ts';
import { multiLine } from './text-policy.ts';
import { userProfile } from './users.ts';

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
