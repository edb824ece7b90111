import { asc, eq, max } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { StaffMember } from '../../../contract/staff.ts';
import type { Db } from '../../db/client.ts';
import { staffMembers } from '../../db/schema/account-security.ts';
import { sessions, users } from '../../db/schema/platform.ts';

const inviter = alias(users, 'inviter');

/** The owner's staff list (decision 191), oldest invitation first; `id` narrows it to one member. */
export async function listStaff(db: Db, id?: string): Promise<StaffMember[]> {
  const lastSeen = db
    .select({ userId: sessions.userId, at: max(sessions.lastSeenAt).as('at') })
    .from(sessions)
    .groupBy(sessions.userId)
    .as('last_seen');
  const rows = await db
    .select({
      id: staffMembers.id,
      email: staffMembers.email,
      invitedAt: staffMembers.createdAt,
      userId: users.id,
      name: users.name,
      invitedBy: inviter.email,
      lastSeenAt: lastSeen.at,
    })
    .from(staffMembers)
    // The person's account is found by the listed address: they may sign up after the invitation.
    .leftJoin(users, eq(users.email, staffMembers.email))
    .leftJoin(inviter, eq(inviter.id, staffMembers.invitedBy))
    .leftJoin(lastSeen, eq(lastSeen.userId, users.id))
    .where(id ? eq(staffMembers.id, id) : undefined)
    .orderBy(asc(staffMembers.createdAt), asc(staffMembers.id));
  return rows.map((r) => ({
    id: r.id,
    email: r.email,
    userId: r.userId,
    name: r.name,
    invitedAt: r.invitedAt.toISOString(),
    invitedBy: r.invitedBy,
    lastSeenAt: r.lastSeenAt ? new Date(r.lastSeenAt).toISOString() : null,
  }));
}
