import type { z } from 'zod';
import type { addUserBody } from '../../../contract/users.ts';
import type { AppDeps } from '../../deps.ts';
import { identities } from '../../db/schema/accounts.ts';
import { users } from '../../db/schema/platform.ts';
import { badRequest, conflict } from '../../lib/app-error.ts';
import { PHONE_MESSAGE } from '../../../domain/validation.ts';
import { roleAtSignIn } from '../auth/admin-role.ts';
import { signIn, type SignInContext } from '../auth/sign-in.ts';
import { consumeSignupTicket } from '../auth/signup-tickets.ts';
import { touchColumns, type FirstTouch } from '../funnel/visitors.ts';

type AddUserInput = z.output<typeof addUserBody>;

/** Creates the account an e-mail was proven for: no matching ticket, no account. */
export async function addUser(deps: AppDeps, input: AddUserInput, client: SignInContext = {}, touch?: FirstTouch | null) {
  // A customer's orders and invoices need the address and phone; staff are not asked for them
  // (docs/decisions/276-staff-onboarding-and-payment-ids.md). Checked before the ticket is used up.
  const role = await roleAtSignIn(deps, { role: 'customer', email: input.email });
  if (role === 'customer') {
    const missing = [
      ...(input.phone_code ? [] : [{ path: 'phone_code', message: 'Please choose a country code.' }]),
      ...(input.phone_number ? [] : [{ path: 'phone_number', message: PHONE_MESSAGE }]),
      ...(input.address ? [] : [{ path: 'address', message: 'Please enter your address.' }]),
    ];
    if (missing.length) throw badRequest(missing.map((m) => m.message).join(' '), missing);
  }
  const ticket = await consumeSignupTicket(deps, input.signupTicket, input.email);
  const [user] = await deps.db
    .insert(users)
    .values({
      email: input.email,
      name: input.name,
      phoneCode: input.phone_code ?? null,
      phoneNumber: input.phone_number ?? null,
      address: input.address ?? null,
      // An ADMIN_EMAILS address is the owner, an address on the staff list is staff (decision 191).
      role,
      ...touchColumns(touch),
    })
    .onConflictDoNothing({ target: users.email })
    .returning();
  if (!user) throw conflict('An account with this e-mail already exists. Please sign in.');
  if (ticket.provider && ticket.subject) {
    await deps.db
      .insert(identities)
      .values({ userId: user.id, provider: ticket.provider, subject: ticket.subject, email: input.email, profile: ticket.profile ?? {} })
      .onConflictDoNothing();
  }
  return { success: true as const, ...(await signIn(deps, user, { userAgent: client.userAgent, ip: client.ip })) };
}
