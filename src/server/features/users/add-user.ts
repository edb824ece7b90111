import type { z } from 'zod';
import type { addUserBody } from '../../../contract/users.ts';
import type { AppDeps } from '../../deps.ts';
import { identities } from '../../db/schema/accounts.ts';
import { users } from '../../db/schema/platform.ts';
import { conflict } from '../../lib/app-error.ts';
import { roleAtSignIn } from '../auth/admin-role.ts';
import { signIn, type SignInContext } from '../auth/sign-in.ts';
import { consumeSignupTicket } from '../auth/signup-tickets.ts';
import { touchColumns, type FirstTouch } from '../funnel/visitors.ts';

type AddUserInput = z.output<typeof addUserBody>;

/** Creates the account an e-mail was proven for: no matching ticket, no account. */
export async function addUser(deps: AppDeps, input: AddUserInput, client: SignInContext = {}, touch?: FirstTouch | null) {
  const ticket = await consumeSignupTicket(deps, input.signupTicket, input.email);
  const [user] = await deps.db
    .insert(users)
    .values({
      email: input.email,
      name: input.name,
      phoneCode: input.phone_code,
      phoneNumber: input.phone_number,
      address: input.address,
      // An ADMIN_EMAILS address is the owner, an address on the staff list is staff (decision 191).
      role: await roleAtSignIn(deps, { role: 'customer', email: input.email }),
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
