import { z } from 'zod';
import { EMAIL_MAX, LEAD_EMAIL_REGEX, PHONE_MESSAGE, isValidLeadEmail, isValidLeadPhone } from '../domain/validation.ts';
import { defineOperation } from './operation.ts';

/** The page a form was sent from ('/', '/pricing'); optional, for the founder's overview. */
export const sourcePage = z
  .string()
  .max(200)
  .regex(/^\/[\w\-/]*$/, 'page must be a path such as /pricing')
  .optional();

/** Spec §5 lead e-mail; stored trimmed and lower-cased. */
export const leadEmail = z
  .string()
  .trim()
  .toLowerCase()
  .max(EMAIL_MAX)
  .regex(LEAD_EMAIL_REGEX, 'Please enter a valid e-mail address.')
  .refine(isValidLeadEmail, 'Please enter a valid e-mail address.');

/** POST /alert/sendEmail — lead by e-mail (spec §7). */
export const sendEmailBody = z.object({ email: leadEmail, page: sourcePage });
export type SendEmailBody = z.input<typeof sendEmailBody>;

/** POST /alert/sendMessage — lead by phone: the phone code joined with 5 to 11 digits (spec §3, §5). */
export const sendMessageBody = z.object({
  phone: z.string().trim().max(30).refine(isValidLeadPhone, PHONE_MESSAGE),
  page: sourcePage,
});
export type SendMessageBody = z.input<typeof sendMessageBody>;

export const leadResponse = z.object({ success: z.literal(true), message: z.string() });
export type LeadResponse = z.infer<typeof leadResponse>;

// Operations (docs/decisions/280-contract-operations.md).

/** Leave an e-mail address to be contacted */
export const postAlertSendEmail = defineOperation({
  method: 'POST',
  path: '/api/v1/alert/sendEmail',
  body: sendEmailBody,
  responses: { 200: leadResponse },
});

/** Leave a phone number to be contacted */
export const postAlertSendMessage = defineOperation({
  method: 'POST',
  path: '/api/v1/alert/sendMessage',
  body: sendMessageBody,
  responses: { 200: leadResponse },
});
