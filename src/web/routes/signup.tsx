import { Link, useLocation } from 'react-router';
import { Spinner } from '../components/ui/spinner.tsx';
import { siteConfig } from '../lib/site-config.ts';
import { AuthShell, FormError, OrDivider } from '../features/auth/auth-shell.tsx';
import { readAuthState } from '../features/auth/auth-state.ts';
import { EmailStep } from '../features/auth/email-step.tsx';
import { SocialButtons } from '../features/auth/social-buttons.tsx';
import { useSocialReturn } from '../features/auth/use-social-return.ts';

// Spec §2 "Sign-up": 'First, enter your email', Continue and Continue with Google. A social
// sign-up that already has an account goes to / (spec §4 "Social sign-in").
const toHome = () => '/';

export default function SignupPage() {
  const location = useLocation();
  const { isPricing } = readAuthState(location.state);
  const social = useSocialReturn({ next: toHome });
  const { signIn } = siteConfig();
  const busy = social.status === 'working' || social.status === 'signed-in';
  return (
    <AuthShell title="First, enter your email" subtitle="We'll send a code to confirm it, then ask for a few details.">
      {busy ? (
        <p className="flex items-center gap-3 text-muted">
          <Spinner label="Signing you in" /> Signing you in…
        </p>
      ) : (
        <>
          {social.status === 'error' && <FormError>{social.message}</FormError>}
          <EmailStep purpose="signup" isPricing={isPricing} />
          {(signIn.google || signIn.microsoft) && <OrDivider />}
          <SocialButtons returnTo="/signup" isPricing={isPricing} verb="Continue" />
          <p className="text-center text-sm text-muted">
            Already have an account?{' '}
            <Link to="/login" state={{ isPricing }} className="font-semibold text-accent-soft underline-offset-4 hover:underline">
              Sign in
            </Link>
          </p>
        </>
      )}
    </AuthShell>
  );
}
