import { and, eq, isNull } from 'drizzle-orm';
import type { z } from 'zod';
import type { updateProfileBody } from '../../../contract/account.ts';
import type { AppDeps } from '../../deps.ts';
import { users } from '../../db/schema/platform.ts';
import { badRequest, unauthorized } from '../../lib/app-error.ts';
import { userChanged } from '../auth/sessions.ts';
import { toUserProfile } from './user-profile.ts';

type ProfileChanges = z.output<typeof updateProfileBody>;

/**
 * Corrects the signed-in person's details (the privacy policy's "correct"). The
 * contract has already applied the sign-up rules to each field and the string policy to every
 * string; text such as "<b>" is kept as typed — it is a name, not markup, and every screen and
 * e-mail escapes it (decision 193). A phone is one value: its country code and digits change
 * together, as on the sign-up form. A deleted account has no row to correct: 401.
 */
export async function updateProfile(deps: AppDeps, userId: string, changes: ProfileChanges) {
  if ((changes.phone_code === undefined) !== (changes.phone_number === undefined)) {
    throw badRequest('Please send the country code and the phone number together.');
  }
  const set = {
    ...(changes.name !== undefined && { name: changes.name }),
    ...(changes.address !== undefined && { address: changes.address }),
    ...(changes.phone_code !== undefined && { phoneCode: changes.phone_code, phoneNumber: changes.phone_number }),
  };
  if (!Object.keys(set).length) throw badRequest('Nothing to change: send a name, a phone or an address.');
  const [user] = await deps.db
    .update(users)
    .set({ ...set, updatedAt: new Date() })
    .where(and(eq(users.id, userId), isNull(users.deletedAt)))
    .returning();
  if (!user) throw unauthorized('This account no longer exists. Please sign in again.');
  userChanged(deps.db, userId);
  return { success: true as const, user: toUserProfile(user) };
}
