// Who someone is to the agency (decision 191). The owner is an ADMIN_EMAILS address and
// keeps the historic role name 'admin'; staff are invited by the owner and work on orders.
export const USER_ROLES = ['customer', 'staff', 'admin'] as const;

export type UserRole = (typeof USER_ROLES)[number];

/** The stored value of the owner's role (the glossary in docs/architecture.md): the one place that names it. */
export const OWNER_ROLE = 'admin' satisfies UserRole;

/** Whether the role opens the back office at all (what each one may do there: permissions.ts). */
export const isBackOffice = (role: string | null | undefined): role is 'staff' | typeof OWNER_ROLE =>
  role === 'staff' || role === OWNER_ROLE;

/** What the back office's owner-only parts need. */
export const isOwner = (role: string | null | undefined): role is typeof OWNER_ROLE => role === OWNER_ROLE;
