// A deleted account (decision 192): the users row stays, because orders, payments and
// invoices the law makes the agency keep point to it, but it holds no personal data any more. The
// back office and the dashboard show this name where the person was.

export const DELETED_CUSTOMER_NAME = 'Deleted customer';

/** `.invalid` is reserved (RFC 2606): the address can never receive mail nor belong to anyone. */
export const DELETED_EMAIL_DOMAIN = 'deleted.invalid';

/** The anonymised address of a deleted account: unique (the first 12 hex digits of its id), no personal data. */
export const deletedEmailFor = (userId: string) => `deleted-${userId.replace(/-/g, '').slice(0, 12).toLowerCase()}@${DELETED_EMAIL_DOMAIN}`;

export const isDeletedEmail = (email: string) => email.toLowerCase().endsWith(`@${DELETED_EMAIL_DOMAIN}`);

/** What replaces a text a deleted person wrote that the other side's thread still shows. */
export const ERASED_TEXT = '[Removed: the customer deleted their account]';
