import { Link, Navigate, useLocation } from 'react-router';
import { Spinner } from '../components/ui/spinner.tsx';
import { siteConfig } from '../lib/site-config.ts';
import { useSession } from '../lib/session.tsx';
import { AuthShell, FormError, OrDivider } from '../features/auth/auth-shell.tsx';
import { afterSignIn, readAuthState } from '../features/auth/auth-state.ts';
import { EmailStep } from '../features/auth/email-step.tsx';
import { PasskeySignIn } from '../features/auth/passkey-sign-in.tsx';
import { SocialButtons } from '../features/auth/social-buttons.tsx';
import { useSocialReturn } from '../features/auth/use-social-return.ts';

// Spec §2 "Login": 'Sign in to' + the brand, Google/Microsoft, e-mail, a passkey, a link to sign up;
// router state isPricing sends the user to /pricing after sign-in.
export default function LoginPage() {
  const location = useLocation();
  const { isPricing } = readAuthState(location.state);
  const session = useSession();
  const social = useSocialReturn();
  const { brand } = siteConfig();

  if (!session.loading && session.isLoggedIn && social.status === 'idle') {
    return <Navigate to={afterSignIn(isPricing, session.user?.role)} replace />;
  }
  const busy = social.status === 'working' || social.status === 'signed-in';
  return (
    <AuthShell title={`Sign in to ${brand}`} subtitle="We'll e-mail you a one-time code. No password needed.">
      {busy ? (
        <p className="flex items-center gap-3 text-muted">
          <Spinner label="Signing you in" /> Signing you in…
        </p>
      ) : (
        <>
          {social.status === 'error' && <FormError>{social.message}</FormError>}
          <SocialButtons returnTo="/login" isPricing={isPricing} verb="Sign in" />
          {(siteConfig().signIn.google || siteConfig().signIn.microsoft) && <OrDivider />}
          <EmailStep purpose="login" isPricing={isPricing} />
          <PasskeySignIn isPricing={isPricing} />
          <p className="text-center text-sm text-muted">
            New here?{' '}
            <Link to="/signup" state={{ isPricing }} className="font-semibold text-accent-soft underline-offset-4 hover:underline">
              Sign up
            </Link>
          </p>
        </>
      )}
    </AuthShell>
  );
}
