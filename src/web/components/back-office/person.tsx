import { Link } from 'react-router';
import { DELETED_CUSTOMER_NAME, isDeletedEmail } from '../../../domain/deleted-account.ts';
import { isOwner } from '../../../domain/roles.ts';
import { Badge } from './admin-ui.tsx';

/** Whether this e-mail is a deleted account's placeholder (decision 192). */
export const isDeletedPerson = (email: string | null | undefined) => !!email && isDeletedEmail(email);

/**
 * "Deleted customer", muted: where a person who deleted their account used to be. A link (to the
 * account's page, where its orders and kept invoices are) stays a link, muted too.
 */
export function DeletedPerson({ to }: { to?: string }) {
  return to ? (
    <Link to={to} className="text-muted italic underline-offset-2 hover:underline" data-testid="deleted-customer">
      {DELETED_CUSTOMER_NAME}
    </Link>
  ) : (
    <span className="text-muted italic" data-testid="deleted-customer">
      {DELETED_CUSTOMER_NAME}
    </span>
  );
}

/**
 * An e-mail address that wraps where a reader expects — after the "@" and before a dot — and only
 * mid-word when one part alone is wider than the column (not "priya.sh|arma@…" as break-all did).
 */
export function Email({ value }: { value: string }) {
  const parts = value.split(/(?=\.)|(?<=@)/);
  return (
    <span className="wrap-anywhere" data-testid="email">
      {parts.map((part, i) => (
        <span key={i}>
          {i > 0 && <wbr />}
          {part}
        </span>
      ))}
    </span>
  );
}

/**
 * A person in the back office: the name (a link to `to`, when given) with the e-mail below; or, for
 * a deleted account, "Deleted customer" and nothing else — its placeholder address is not theirs,
 * is worth nothing to write to and must not read as if it were.
 */
export function Person({
  name,
  email,
  to,
  mailto = false,
}: {
  name: string | null | undefined;
  email: string;
  to?: string;
  mailto?: boolean;
}) {
  if (isDeletedPerson(email)) return <DeletedPerson to={to} />;
  const main = name || <Email value={email} />;
  return (
    <>
      {to ? (
        <Link to={to} className="text-accent-soft underline-offset-2 hover:underline">
          {main}
        </Link>
      ) : (
        main
      )}
      {name && (
        <div className="text-xs text-muted">
          {mailto ? (
            <a href={`mailto:${email}`} className="hover:text-white hover:underline">
              <Email value={email} />
            </a>
          ) : (
            <Email value={email} />
          )}
        </div>
      )}
    </>
  );
}

/** Who the account is to the agency: the owner, staff or a customer. */
export function RoleBadge({ role }: { role: string }) {
  if (isOwner(role)) return <Badge tone="accent">Owner</Badge>;
  if (role === 'staff') return <Badge tone="accent">Staff</Badge>;
  return <Badge>Customer</Badge>;
}

/** A person in one line: the name, else the e-mail; "Deleted customer" for a deleted account. */
export function PersonLabel({ name, email }: { name: string | null | undefined; email: string }) {
  return isDeletedPerson(email) ? <DeletedPerson /> : <>{name ?? email}</>;
}
