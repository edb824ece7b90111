import { and, eq, inArray, isNull, ne, or, sql } from 'drizzle-orm';
import { DELETED_CUSTOMER_NAME, deletedEmailFor } from '../../../domain/deleted-account.ts';
import { isOwner } from '../../../domain/roles.ts';
import type { Db, Tx } from '../../db/client.ts';
import { orders } from '../../db/schema/orders.ts';
import { maintenanceSubscriptions } from '../../db/schema/maintenance.ts';
import type { AppDeps } from '../../deps.ts';
import { sessions, users, mailOutbox } from '../../db/schema/platform.ts';
import { identities, loginCodes, signupTickets, socialHandoffs } from '../../db/schema/accounts.ts';
import { emailChangeCodes, passkeys, recoveryCodes, staffMembers, webauthnChallenges } from '../../db/schema/account-security.ts';
import { adminAuditLog } from '../../db/schema/admin.ts';
import type { DeletionBlocker } from '../../../contract/account.ts';
import { AppError, badRequest, conflict, unauthorized } from '../../lib/app-error.ts';
import { recordAudit } from '../../lib/audit-log.ts';
import { isOwnerEmail } from '../auth/admin-role.ts';
import { revokeAllSessions, sessionCacheOf, type AuthContext } from '../auth/sessions.ts';
import { consumeLoginCode } from '../auth/verify-login-code.ts';

// Decision 192: a person deletes their own account. The users row stays (orders,
// payments and invoices point to it and the law keeps those for INVOICE_RETENTION_YEARS) but holds
// nothing personal; the sign-in material goes; every feature erases its own part on `account.deleted`.

/** How recent a passkey confirmation of the session must be to stand in for a fresh code. */
export const DELETE_CONFIRMATION_MS = 10 * 60 * 1000;

const ownerMessage =
  'The owner’s account cannot be deleted here: remove the address from ADMIN_EMAILS and hand the back office over first.';
const maintenanceMessage =
  'Your maintenance plan is still active. Please cancel it on the order page first (it stops at the end of the paid month), then delete your account.';
const inProgressMessage =
  'An order you paid for is still in progress. You can delete your account once it is delivered; until then, write to us if you need anything changed.';

/**
 * Why the account cannot go now, if it cannot: an order paid for (an installment captured) and not
 * yet delivered — its work goes on for the person — or a maintenance plan still charging (not set to
 * end), which would go on charging nobody.
 */
type Blocker = { kind: DeletionBlocker['kind']; error: AppError };

async function blockersOf(db: Db | Tx, userId: string): Promise<Blocker[]> {
  const [inProgress] = await db
    .select({ id: orders.id })
    .from(orders)
    .where(
      and(
        eq(orders.userId, userId),
        ne(orders.state, 'delivered'),
        sql`exists (select 1 from installments i where i.order_id = ${orders.id} and i.state = 'paid')`,
      ),
    )
    .limit(1);
  const [plan] = await db
    .select({ id: maintenanceSubscriptions.id })
    .from(maintenanceSubscriptions)
    .innerJoin(orders, eq(orders.id, maintenanceSubscriptions.orderId))
    .where(
      and(
        eq(orders.userId, userId),
        inArray(maintenanceSubscriptions.state, ['authenticated', 'active', 'pending', 'halted']),
        eq(maintenanceSubscriptions.cancelAtPeriodEnd, false),
      ),
    )
    .limit(1);
  return [
    ...(inProgress ? [{ kind: 'order_in_progress' as const, error: new AppError('ORDER_IN_PROGRESS', inProgressMessage) }] : []),
    ...(plan ? [{ kind: 'maintenance_plan' as const, error: conflict(maintenanceMessage) }] : []),
  ];
}

const refusal = async (db: Db | Tx, userId: string) => (await blockersOf(db, userId))[0]?.error ?? null;

/**
 * What stops the deletion now (GET /user/delete-account), read by the dialog BEFORE it offers to
 * send a code (docs/decisions/275-account-deletion-up-front.md): the same checks the deletion runs.
 */
export async function deletionBlockers(deps: AppDeps, auth: AuthContext): Promise<DeletionBlocker[]> {
  if (isOwner(auth.user.role) || isOwnerEmail(deps, auth.user.email)) return [{ kind: 'owner', message: ownerMessage }];
  return (await blockersOf(deps.db, auth.user.id)).map((b) => ({ kind: b.kind, message: b.error.message }));
}

/** The address a deletion code goes to: the row's own now (the session cache may hold an address just changed). */
export async function deletionCodeAddress(deps: AppDeps, auth: AuthContext): Promise<string> {
  const [user] = await deps.db
    .select({ email: users.email, deletedAt: users.deletedAt })
    .from(users)
    .where(eq(users.id, auth.user.id))
    .limit(1);
  if (!user || user.deletedAt) throw unauthorized();
  return user.email;
}

/**
 * The fresh confirmation the deletion needs: a sign-in code sent to the person's own address
 * (counted tries, single use — the sign-in's own rules), or a passkey confirmation of this session
 * within DELETE_CONFIRMATION_MS.
 */
async function confirm(deps: AppDeps, auth: AuthContext, code: string | undefined, now: Date) {
  if (code) {
    const used = await consumeLoginCode(deps, auth.user.email, code);
    // The deletion's own code (POST /user/delete-account/code), or a sign-in code as clients sent
    // before it existed; a sign-up code proves an address that has no account and never speaks for this one.
    if (used.purpose === 'signup') throw badRequest('Invalid OTP. Please try again.');
    return;
  }
  const confirmedAt = auth.confirmedAt?.getTime();
  if (confirmedAt !== undefined && now.getTime() - confirmedAt <= DELETE_CONFIRMATION_MS && confirmedAt <= now.getTime()) return;
  throw new AppError(
    'CONFIRMATION_REQUIRED',
    'Please confirm the deletion with a fresh sign-in code sent to your e-mail, or with your passkey.',
  );
}

/** Erases what the sign-in and the account hold (the features' own parts follow on `account.deleted`). */
async function anonymise(tx: Tx, user: AuthContext['user'], now: Date) {
  const email = user.email;
  const [done] = await tx
    .update(users)
    .set({
      name: DELETED_CUSTOMER_NAME,
      email: deletedEmailFor(user.id),
      phoneCode: null,
      phoneNumber: null,
      address: null,
      role: 'customer',
      firstUtmSource: null,
      firstUtmMedium: null,
      firstUtmCampaign: null,
      firstReferrerHost: null,
      deletedAt: now,
      updatedAt: now,
    })
    .where(and(eq(users.id, user.id), isNull(users.deletedAt)))
    .returning({ id: users.id });
  // A second request that raced this one past the session check: the first one deleted it.
  if (!done) throw unauthorized();
  await revokeAllSessions(tx, user.id);
  // The devices' names and user agents of old sessions are personal too; the rows stay revoked.
  await tx.update(sessions).set({ userAgent: null, city: null }).where(eq(sessions.userId, user.id));
  await tx.delete(passkeys).where(eq(passkeys.userId, user.id));
  await tx.delete(webauthnChallenges).where(eq(webauthnChallenges.userId, user.id));
  await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, user.id));
  await tx.delete(identities).where(eq(identities.userId, user.id));
  await tx.delete(socialHandoffs).where(or(eq(socialHandoffs.userId, user.id), eq(socialHandoffs.email, email)));
  await tx.delete(emailChangeCodes).where(eq(emailChangeCodes.userId, user.id));
  await tx.delete(loginCodes).where(eq(loginCodes.email, email));
  await tx.delete(signupTickets).where(eq(signupTickets.email, email));
  // A staff member's invitation is by address: it would make a new account of it staff again.
  await tx.delete(staffMembers).where(eq(staffMembers.email, email));
  // Mail waiting for (or sent to) the address: its bodies quote the person.
  await tx.delete(mailOutbox).where(eq(mailOutbox.toAddress, email));
  // The audit log names who did what by address (kept for a deleted actor, recordAudit): a deleted
  // staff member's entries keep their id and get the anonymised address.
  await tx
    .update(adminAuditLog)
    .set({ actorEmail: deletedEmailFor(user.id) })
    .where(eq(adminAuditLog.actorUserId, user.id));
}

/**
 * Deletes the signed-in person's account (POST /user/delete-account): refused to the owner and while
 * an order is in progress, confirmed by a fresh code or passkey, then done in one transaction with
 * every feature's part; the sessions end at once on every instance, sockets included.
 */
export async function deleteAccount(deps: AppDeps, auth: AuthContext, input: { code?: string }, now = new Date()) {
  // The row as it is now, not as the session cache saw it up to SESSION_CACHE_MS ago (an e-mail
  // just changed is the address whose code counts and whose traces go).
  const [user] = await deps.db.select().from(users).where(eq(users.id, auth.user.id)).limit(1);
  if (!user || user.deletedAt) throw unauthorized();
  // The owner's address would be re-created at its next sign-in (ADMIN_EMAILS) and the back office
  // would lose its owner: refused here (decision 192).
  if (isOwner(user.role) || isOwnerEmail(deps, user.email)) {
    throw conflict(ownerMessage);
  }
  // Checked before the code is used up, so a refused request does not cost the person their code.
  const refused = await refusal(deps.db, user.id);
  if (refused) throw refused;
  await confirm(deps, { ...auth, user }, input.code, now);

  await deps.events.transaction(async (tx) => {
    // One deletion at a time per account, and the checks again under the lock: a payment that
    // settled meanwhile wins, and the address is the one the row holds now.
    const [locked] = await tx.select().from(users).where(eq(users.id, user.id)).for('update');
    if (!locked || locked.deletedAt) throw unauthorized();
    const late = await refusal(tx, user.id);
    if (late) throw late;
    await anonymise(tx, locked, now);
    await recordAudit(tx, {
      actorUserId: user.id,
      action: 'account.delete',
      entity: 'user',
      entityId: user.id,
      before: null,
      after: { deletedAt: now.toISOString() },
    });
    await deps.events.publish(tx, 'account.deleted', { userId: user.id, email: locked.email, at: now });
  });
  // After commit: every instance drops its cached sessions and cuts the person's sockets.
  sessionCacheOf(deps.db)?.userSessionsRevoked(user.id);
  deps.revocations.revoked({ userId: user.id });
  deps.log.info({ userId: user.id }, 'account deleted');
}
