import { eq } from 'drizzle-orm';
import type { StaffMember } from '../../../contract/staff.ts';
import { isOwner } from '../../../domain/roles.ts';
import type { AppDeps } from '../../deps.ts';
import { staffMembers } from '../../db/schema/account-security.ts';
import { users } from '../../db/schema/platform.ts';
import { conflict } from '../../lib/app-error.ts';
import { recordAudit } from '../../lib/audit-log.ts';
import { isOwnerEmail } from '../auth/admin-role.ts';
import { sessionCacheOf } from '../auth/sessions.ts';
import { renderEmail } from '../mail/render-email.ts';
import { listStaff } from './list-staff.ts';

const OWNER_ADDRESS = 'This address belongs to the owner, who already has every right. Staff are other people.';

/**
 * The owner puts an address on the staff list (decision 191). An existing customer account becomes
 * staff at once; a new address becomes staff when it signs up or signs in (auth/admin-role.ts). The
 * owner (an ADMIN_EMAILS address, or an account that is already the owner) cannot be made staff, and
 * an address is listed once: both 409. Recorded in the audit log with the change, and the person is
 * told by e-mail through the outbox, in the same transaction: a crash after the commit still sends
 * the invitation (docs/decisions/340-mails-in-their-transaction.md).
 */
export async function inviteStaff(deps: AppDeps, actorUserId: string, email: string): Promise<StaffMember> {
  const address = email.toLowerCase();
  if (isOwnerEmail(deps, address)) throw conflict(OWNER_ADDRESS);
  const { member, promoted } = await deps.events.transaction(async (tx) => {
    const [account] = await tx.select({ id: users.id, role: users.role }).from(users).where(eq(users.email, address)).limit(1);
    if (isOwner(account?.role)) throw conflict(OWNER_ADDRESS);
    const [row] = await tx
      .insert(staffMembers)
      .values({ email: address, invitedBy: actorUserId })
      .onConflictDoNothing({ target: staffMembers.email })
      .returning();
    if (!row) throw conflict('This address is already on the staff.');
    const promoted = account && account.role !== 'staff' ? account.id : null;
    if (promoted) await tx.update(users).set({ role: 'staff', updatedAt: new Date() }).where(eq(users.id, promoted));
    await recordAudit(tx, {
      actorUserId,
      action: 'staff.invite',
      entity: 'staff_member',
      entityId: row.id,
      before: null,
      after: { email: address, userId: account?.id ?? null, role: 'staff' },
    });
    const [actor] = await tx.select({ email: users.email }).from(users).where(eq(users.id, actorUserId)).limit(1);
    await deps.mailer.enqueue(tx, address, 'staff-invitation', invitationMail(deps, address, actor?.email ?? null));
    return { member: row, promoted };
  });
  // The new role counts at the person's next request on every instance, not after the cache's seconds:
  // their cached session look-ups are dropped (the sessions themselves stay signed in).
  if (promoted) sessionCacheOf(deps.db)?.userSessionsRevoked(promoted);
  const [listed] = await listStaff(deps.db, member.id);
  return listed!;
}

function invitationMail(deps: AppDeps, address: string, inviterEmail: string | null) {
  const brand = deps.config.BRAND_NAME;
  return renderEmail(brand, {
    subject: `You are invited to the ${brand} team`,
    heading: 'You are invited to the team',
    paragraphs: [
      `${inviterEmail ?? 'The owner'} added ${address} to the staff of ${brand}: you can work on orders, the chat, leads, ` +
        `contact messages and support requests.`,
      'Sign in with this e-mail address (a code is sent to it). If you have no account yet, sign up with it: the staff role is yours from the first sign-in.',
      'Not expecting this? Ignore this e-mail: nothing happens until you sign in.',
    ],
    action: { label: 'Sign in', url: `${deps.config.publicUrl}/login` },
  });
}
