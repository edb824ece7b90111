import { z } from 'zod';
import { multiLine } from './text-policy.ts';
import {
  ADDRESS_MAX,
  EMAIL_MAX,
  MESSAGE_MAX,
  NAME_MAX,
  PHONE_CODE_REGEX,
  PHONE_DIGITS_REGEX,
  PHONE_MESSAGE,
  isValidEmail,
} from '../domain/validation.ts';
import { defineOperation } from './operation.ts';

/** POST /contact/addContact (spec §3 "Contact submission", §5 rules). */
export const addContactBody = z.object({
  name: z.string().trim().min(1, 'Name is required.').max(NAME_MAX),
  email: z.string().trim().toLowerCase().max(EMAIL_MAX).refine(isValidEmail, 'Please enter a valid e-mail address.'),
  message: multiLine(z.string().max(MESSAGE_MAX)).default(''),
  phone_code: z.string().trim().regex(PHONE_CODE_REGEX, 'phone_code must look like +1, 91 or 1-242').default('+1'),
  phone_number: z.string().trim().regex(PHONE_DIGITS_REGEX, PHONE_MESSAGE),
  address: multiLine(z.string().trim().max(ADDRESS_MAX)).default(''),
});
export type AddContactBody = z.input<typeof addContactBody>;

export const addContactResponse = z.object({ success: z.literal(true), ok: z.literal(true), message: z.string() });
export type AddContactResponse = z.infer<typeof addContactResponse>;

// Operations (docs/decisions/280-contract-operations.md).

/** Send a message through the contact form */
export const postContactAddContact = defineOperation({
  method: 'POST',
  path: '/api/v1/contact/addContact',
  body: addContactBody,
  responses: { 200: addContactResponse },
});
