import { z } from 'zod';
import { emailSchema } from './auth.ts';

// Issue 21 item 3: the owner's staff list (/admin/staff). Owner only.

export const staffMember = z.object({
  id: z.string(),
  email: z.string(),
  /** Set once the person has signed in (or already had an account). */
  userId: z.string().nullable(),
  name: z.string().nullable(),
  invitedAt: z.string(),
  invitedBy: z.string().nullable(),
  lastSeenAt: z.string().nullable(),
});
export type StaffMember = z.infer<typeof staffMember>;

export const staffListResponse = z.object({ staff: z.array(staffMember) });
export type StaffListResponse = z.infer<typeof staffListResponse>;

export const inviteStaffBody = z.object({ email: emailSchema });
export const inviteStaffResponse = z.object({ success: z.literal(true), member: staffMember });
export type InviteStaffResponse = z.infer<typeof inviteStaffResponse>;
