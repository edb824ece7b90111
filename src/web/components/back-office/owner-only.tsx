import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { useSession } from '../../lib/session.tsx';
import { canSee, type AdminSection } from './sections.ts';

/**
 * An owner-only page opened by a staff member (a bookmark, a link from a colleague): a clear
 * refusal inside the back office instead of a page whose every call fails with 403.
 */
export function OwnerOnly({ section, children }: { section: AdminSection; children: ReactNode }) {
  const session = useSession();
  // While the session is checked, the back office is mounted hidden (routes/admin.tsx): the page's
  // chunk and reads start beside the check, not after it. The server answers them only for the owner.
  if (session.loading || canSee(session.user?.role, section)) return <>{children}</>;
  return <OnlyTheOwner />;
}

/** Whether the signed-in person sees this section (for a panel, a button, a link inside a page). */
export function useCanSee(section: AdminSection): boolean {
  return canSee(useSession().user?.role, section);
}

export function OnlyTheOwner() {
  return (
    <section className="mx-auto flex max-w-xl flex-col items-center gap-4 py-16 text-center" data-testid="owner-only">
      <h1 className="text-2xl font-bold text-white sm:text-3xl">Only the owner can see this</h1>
      <p className="text-muted">
        This part of the back office is kept for the agency's owner: money, customers' data as a whole, the audit log and the team. Your
        staff account works on orders, chats, leads and support.
      </p>
      <Link to="/admin/orders" className="rounded-xl bg-accent-strong px-5 py-2.5 text-sm font-semibold text-white hover:bg-accent-hover">
        Go to the orders
      </Link>
    </section>
  );
}
