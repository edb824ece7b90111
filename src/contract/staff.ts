import { z } from 'zod';
import { emailSchema } from './auth.ts';
import { defineOperation } from './operation.ts';
import { uuidParams } from './admin.ts';

// The owner's staff list (/admin/staff). Owner only.

export const staffMember = z.object({
  id: z.string(),
  email: z.string(),
  /** Set once the person has signed in (or already had an account). */
  userId: z.string().nullable(),
  name: z.string().nullable(),
  invitedAt: z.string(),
  /** The e-mail of the owner who invited them (null once that account is gone). */
  invitedBy: z.string().nullable(),
  lastSeenAt: z.string().nullable(),
});
export type StaffMember = z.infer<typeof staffMember>;

export const staffListResponse = z.object({ staff: z.array(staffMember) });
export type StaffListResponse = z.infer<typeof staffListResponse>;

export const inviteStaffBody = z.object({ email: emailSchema });
export const inviteStaffResponse = z.object({ success: z.literal(true), member: staffMember });
export type InviteStaffResponse = z.infer<typeof inviteStaffResponse>;

/** Additive (helper B): what DELETE /api/v1/admin/staff/{id} answers; the person is a customer again. */
export const removeStaffResponse = z.object({ success: z.literal(true), revokedSessions: z.number().int() });
export type RemoveStaffResponse = z.infer<typeof removeStaffResponse>;

// Operations (docs/decisions/280-contract-operations.md).

/** The staff list: invited addresses, their accounts and when they were last seen */
export const getAdminStaff = defineOperation({
  method: 'GET',
  path: '/api/v1/admin/staff',
  responses: { 200: staffListResponse },
});

/** Invite a staff member by e-mail (an existing account becomes staff at once) */
export const postAdminStaff = defineOperation({
  method: 'POST',
  path: '/api/v1/admin/staff',
  body: inviteStaffBody,
  responses: { 201: inviteStaffResponse },
});

/** Remove a staff member: a customer again, signed out everywhere at once */
export const deleteAdminStaffById = defineOperation({
  method: 'DELETE',
  path: '/api/v1/admin/staff/:id',
  params: uuidParams,
  responses: { 200: removeStaffResponse },
});
