import { useEffect, useRef, useState } from 'react';
import { useLocation } from 'react-router';
import { CloseIcon } from '../../components/ui/close-icon.tsx';

/** Router state the dashboard leaves with after a deletion; the home page shows the notice for it. */
export const ACCOUNT_DELETED_STATE = { accountDeleted: true } as const;

/**
 * The home page's notice after "Delete my account": says it is done and what was kept. It lives
 * only in the router's state (nothing stored on the device); prerendered, it renders nothing.
 */
export function AccountDeletedNotice() {
  const location = useLocation();
  const deleted = (location.state as { accountDeleted?: boolean } | null)?.accountDeleted === true;
  const [dismissed, setDismissed] = useState(false);
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (deleted) ref.current?.focus();
  }, [deleted]);
  if (!deleted || dismissed) return null;
  return (
    // In the page's flow above everything else: it covers no banner, menu or button.
    <div className="flex justify-center bg-page px-4 py-3">
      <div
        ref={ref}
        role="status"
        tabIndex={-1}
        data-testid="account-deleted-notice"
        className="flex w-full max-w-3xl items-start gap-3 rounded-2xl border border-success/40 bg-card p-4 text-sm text-ink
          focus:outline-none"
      >
        <p className="min-w-0 flex-1">
          <span className="font-semibold text-white">Your account is deleted.</span> You are signed out everywhere. We keep only your
          invoices and payment records, as tax law requires.
        </p>
        <button
          type="button"
          aria-label="Dismiss"
          onClick={() => setDismissed(true)}
          className="-m-2 inline-flex h-11 w-11 shrink-0 items-center justify-center rounded-full text-muted hover:bg-white/5
            hover:text-white"
        >
          <CloseIcon />
        </button>
      </div>
    </div>
  );
}
