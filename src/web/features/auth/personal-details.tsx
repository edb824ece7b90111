import { useState } from 'react';
import { useNavigate } from 'react-router';
import { Button } from '../../components/ui/button.tsx';
import { errorMessage } from '../../lib/api.ts';
import type { SessionUser } from '../../lib/session.tsx';
import { useSession } from '../../lib/session.tsx';
import { logoutEverywhere } from './auth-api.ts';
import { FormError } from './auth-shell.tsx';

/** Spec §2 "Personal Details": read-only; the phone is phone_code joined with phone_number. */
export function formatPhone(user: Pick<SessionUser, 'phone_code' | 'phone_number'>): string {
  if (!user.phone_number) return '—';
  return user.phone_code ? `+${user.phone_code.replace(/^\+/, '')} ${user.phone_number}` : user.phone_number;
}

export function PersonalDetails({ user }: { user: SessionUser }) {
  const session = useSession();
  const navigate = useNavigate();
  const [error, setError] = useState<string | null>(null);
  const rows: [string, string][] = [
    ['Name', user.name ?? '—'],
    ['Email', user.email],
    ['Phone', formatPhone(user)],
    ['Address', user.address ?? '—'],
  ];

  async function signOutEverywhere() {
    setError(null);
    try {
      await logoutEverywhere();
      await session.logout();
      navigate('/', { replace: true });
    } catch (err) {
      setError(errorMessage(err));
    }
  }

  return (
    <div className="flex flex-col gap-6">
      <dl className="grid gap-4 sm:grid-cols-2">
        {rows.map(([label, value]) => (
          <div key={label} className={`min-w-0 rounded-xl border border-line bg-page/60 p-4 ${label === 'Address' ? 'sm:col-span-2' : ''}`}>
            <dt className="text-xs font-semibold uppercase tracking-wider text-muted">{label}</dt>
            <dd className="mt-1 whitespace-pre-line text-ink wrap-anywhere" data-testid={`detail-${label.toLowerCase()}`}>
              {value}
            </dd>
          </div>
        ))}
      </dl>
      <div className="flex flex-col gap-2 border-t border-line pt-4 sm:flex-row sm:items-center sm:justify-between">
        <p className="text-sm text-muted">Signed in on a shared or lost device? End every session at once.</p>
        <Button variant="secondary" onClick={signOutEverywhere}>
          Sign out everywhere
        </Button>
      </div>
      <FormError>{error}</FormError>
    </div>
  );
}
