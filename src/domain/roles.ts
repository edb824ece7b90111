// Who someone is to the agency (decision 191). The owner is an ADMIN_EMAILS address and
// keeps the historic role name 'admin'; staff are invited by the owner and work on orders.
export const USER_ROLES = ['customer', 'staff', 'admin'] as const;
export type UserRole = (typeof USER_ROLES)[number];

/** Whether the role opens the back office at all (what each one may do there: permissions.ts). */
export const isBackOffice = (role: string | null | undefined): role is 'staff' | 'admin' => role === 'staff' || role === 'admin';

/** What the back office's owner-only parts need. */
export const isOwner = (role: string | null | undefined) => role === 'admin';
