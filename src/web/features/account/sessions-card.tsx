import { useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import { getAuthSessions } from '../../../contract/account.ts';
import { formatWhen } from '../../../domain/when.ts';
import { Button } from '../../components/ui/button.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { errorMessage } from '../../lib/api.ts';
import { useSession } from '../../lib/session.tsx';
import { useOperation } from '../../lib/use-operation.ts';
import { logoutEverywhere } from '../auth/index.ts';
import { FormError } from '../auth/index.ts';
import { AccountCard } from './account-card.tsx';
import { endSession } from './account-api.ts';

/**
 * "Your sessions": every signed-in device with where (the city of the geo
 * look-up, when there was one) and when it was last used; this device marked; any other one can be
 * signed out, or all at once. The list is read again after each change.
 */
export function SessionsCard() {
  const session = useSession();
  const navigate = useNavigate();
  const loaded = useOperation(getAuthSessions, {});
  // This device first, then the most recently used.
  const sessions = useMemo(
    () =>
      loaded.data &&
      [...loaded.data.sessions].sort((a, b) => Number(b.current) - Number(a.current) || b.lastSeenAt.localeCompare(a.lastSeenAt)),
    [loaded.data],
  );
  // A failed sign-out's message; a failed (re)load's shows when there is none.
  const [actionError, setError] = useState<string | null>(null);
  const error = actionError ?? loaded.error;
  const [ending, setEnding] = useState<string | null>(null);

  async function signOut(id: string) {
    setEnding(id);
    setError(null);
    try {
      await endSession(id);
      await loaded.reload();
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setEnding(null);
    }
  }

  async function signOutEverywhere() {
    setError(null);
    try {
      await logoutEverywhere();
      // Home first, then forget the token: a signed-out dashboard would send to /login instead.
      await navigate('/', { replace: true });
      await session.logout();
    } catch (err) {
      setError(errorMessage(err));
    }
  }

  return (
    <AccountCard
      title="Your sessions"
      intro="Where you are signed in. Sign out a device you no longer use or do not recognise."
      testId="sessions-card"
    >
      {sessions === null && !error && <Spinner label="Loading your sessions" />}
      {sessions && (
        <ul className="flex flex-col gap-3" aria-label="Signed-in devices">
          {sessions.map((s) => (
            <li
              key={s.id}
              data-testid="session-row"
              className="flex min-w-0 flex-col gap-3 rounded-xl border border-line bg-page/60 p-4 sm:flex-row sm:items-center
                sm:justify-between"
            >
              <div className="min-w-0">
                <p className="font-semibold text-ink wrap-anywhere">
                  {s.device}
                  {s.current && (
                    <span
                      className="ml-2 inline-block rounded-full bg-accent-strong/30 px-2 py-0.5 align-middle text-xs font-semibold
                        text-accent-soft"
                      data-testid="this-device"
                    >
                      This device
                    </span>
                  )}
                </p>
                <p className="mt-1 text-sm text-muted wrap-anywhere">
                  {s.city ? `${s.city} · ` : ''}Last active {formatWhen(s.lastSeenAt)}
                </p>
              </div>
              {!s.current && (
                <Button
                  variant="secondary"
                  className="min-h-11 shrink-0"
                  disabled={ending !== null}
                  aria-label={`Sign out ${s.device}${s.city ? ` in ${s.city}` : ''}`}
                  onClick={() => void signOut(s.id)}
                >
                  {ending === s.id ? <Spinner label="Signing out" /> : 'Sign out'}
                </Button>
              )}
            </li>
          ))}
        </ul>
      )}
      <div className="mt-4 flex flex-col gap-2 border-t border-line pt-4 sm:flex-row sm:items-center sm:justify-between">
        <p className="text-sm text-muted">Signed in on a shared or lost device? End every session at once, this one too.</p>
        <Button variant="secondary" className="min-h-11 shrink-0" onClick={() => void signOutEverywhere()}>
          Sign out everywhere
        </Button>
      </div>
      <div className="mt-3">
        <FormError>{error}</FormError>
      </div>
    </AccountCard>
  );
}
