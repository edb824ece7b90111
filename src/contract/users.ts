import { z } from 'zod';
import { USER_ROLES } from '../domain/roles.ts';
import { ADDRESS_MAX, isValidPhoneCode, NAME_MAX, PHONE_DIGITS_REGEX, PHONE_MESSAGE } from '../domain/validation.ts';
import { emailSchema } from './auth.ts';
import { multiLine } from './text-policy.ts';
import { defineOperation } from './operation.ts';

// Spec §7 user/addUser and user/getUserById; spec §5 rules for the details form.

export const addUserBody = z.object({
  email: emailSchema,
  name: z.string().trim().min(1, { message: 'Please enter your name.' }).max(NAME_MAX),
  /**
   * Address and phone: required of a customer (orders and invoices need them); an address on the
   * owner's staff list may leave them out (docs/decisions/276-staff-onboarding-and-payment-ids.md).
   */
  address: multiLine(z.string().trim().min(1, { message: 'Please enter your address.' }).max(ADDRESS_MAX)).optional(),
  phone_code: z
    .string()
    .trim()
    .refine(isValidPhoneCode, { message: 'Please choose a country code.' })
    .transform((v) => v.replace(/^\+/, ''))
    .optional(),
  phone_number: z.string().trim().regex(PHONE_DIGITS_REGEX, { message: PHONE_MESSAGE }).optional(),
  location: z.string().max(200).optional(),
  /** From auth/verifyOtp or auth/authLogin: proves the e-mail. */
  signupTicket: z.string().min(16).max(200),
});
export type AddUserBody = z.input<typeof addUserBody>;

export const addUserResponse = z.object({ success: z.literal(true), token: z.string(), userId: z.string() });
export type AddUserResponse = z.infer<typeof addUserResponse>;

export const userProfile = z.object({
  name: z.string().nullable(),
  email: z.string(),
  phone_code: z.string().nullable(),
  phone_number: z.string().nullable(),
  address: z.string().nullable(),
  role: z.enum(USER_ROLES),
});
export type UserProfile = z.infer<typeof userProfile>;

export const getUserByIdResponse = z.object({ success: z.literal(true), user: userProfile });
export type GetUserByIdResponse = z.infer<typeof getUserByIdResponse>;

// Operations (docs/decisions/280-contract-operations.md).

/** Create the account after e-mail proof (needs signupTicket) */
export const postUserAddUser = defineOperation({
  method: 'POST',
  path: '/api/v1/user/addUser',
  body: addUserBody,
  responses: { 200: addUserResponse },
  secretAnswer: true,
});

/** The signed-in user’s profile */
export const getUserGetUserById = defineOperation({
  method: 'GET',
  path: '/api/v1/user/getUserById',
  responses: { 200: getUserByIdResponse },
});
