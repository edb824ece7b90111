import { useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import type { SocialProfileResponse, SocialProvider } from '../../../contract/auth.ts';
import { Button } from '../../components/ui/button.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { errorMessage } from '../../lib/api.ts';
import { siteConfig } from '../../lib/site-config.ts';
import { useSession } from '../../lib/session.tsx';
import { getSocialProfile } from './auth-api.ts';
import { AuthShell, FormError } from './auth-shell.tsx';
import { providerLabel, SocialButton } from './social-buttons.tsx';
import { useSocialReturn } from './use-social-return.ts';

/**
 * The /googleLogin and /microsoftLogin demo pages (spec §2): a redirect sign-in button; once signed
 * in, a button that shows the provider profile; sign-out back to /. The sign-in is the same
 * server-side flow as /login, returning here.
 */
export function SocialDemo({
  provider,
  fields,
}: {
  provider: SocialProvider;
  fields: (p: SocialProfileResponse) => [string, string | null][];
}) {
  const label = providerLabel[provider];
  const returnTo = provider === 'google' ? '/googleLogin' : '/microsoftLogin';
  const session = useSession();
  const navigate = useNavigate();
  const social = useSocialReturn({ stay: true, next: () => returnTo });
  const [profile, setProfile] = useState<SocialProfileResponse | null>(null);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function requestProfile() {
    setLoading(true);
    setError(null);
    try {
      setProfile(await getSocialProfile(provider));
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setLoading(false);
    }
  }

  async function signOut() {
    await session.logout();
    navigate('/', { replace: true });
  }

  let body: ReactNode;
  if (!siteConfig().signIn[provider]) {
    body = <p className="text-muted">{label} sign-in is not configured on this server.</p>;
  } else if (session.loading || social.status === 'working') {
    body = <Spinner label="Loading" />;
  } else if (!session.isLoggedIn) {
    body = <SocialButton provider={provider} returnTo={returnTo} verb="Sign in" />;
  } else {
    body = (
      <>
        <SocialButton provider={provider} returnTo={returnTo} verb="Sign in" />
        <p className="text-ink">
          Signed in as <strong>{session.user?.email}</strong>.
        </p>
        <Button onClick={requestProfile} disabled={loading}>
          {loading ? <Spinner label="Loading the profile" /> : 'Request Profile Information'}
        </Button>
        {profile && (
          <dl className="grid gap-3 rounded-xl border border-line bg-page/60 p-4" data-testid="social-profile">
            {fields(profile).map(([k, v]) => (
              <div key={k}>
                <dt className="text-xs font-semibold uppercase tracking-wider text-muted">{k}</dt>
                <dd className="break-all text-ink">{v ?? '—'}</dd>
              </div>
            ))}
          </dl>
        )}
        <Button variant="secondary" onClick={signOut}>
          Sign out
        </Button>
      </>
    );
  }
  return (
    <AuthShell title={`${label} sign-in`} subtitle={`Sign in with your ${label} account and see what ${label} shares with us.`}>
      {social.status === 'error' && <FormError>{social.message}</FormError>}
      <FormError>{error}</FormError>
      {body}
    </AuthShell>
  );
}
