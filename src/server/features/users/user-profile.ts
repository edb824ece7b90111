import type { UserProfile } from '../../../contract/users.ts';
import type { SessionUser } from '../auth/sessions.ts';

/** The profile as user/getUserById, PATCH /user/profile and the e-mail change answer it. */
export const toUserProfile = (u: SessionUser): UserProfile => ({
  name: u.name,
  email: u.email,
  phone_code: u.phoneCode,
  phone_number: u.phoneNumber,
  address: u.address,
  role: u.role,
});
