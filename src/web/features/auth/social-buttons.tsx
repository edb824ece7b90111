import type { SocialProvider } from '../../../contract/auth.ts';
import { buttonClass } from '../../components/ui/button.tsx';
import { siteConfig } from '../../lib/site-config.ts';
import { socialStartUrl } from './auth-api.ts';

export const providerLabel: Record<SocialProvider, string> = { google: 'Google', microsoft: 'Microsoft' };

export function ProviderIcon({ provider }: { provider: SocialProvider }) {
  if (provider === 'google') {
    return (
      <svg width="18" height="18" viewBox="0 0 48 48" aria-hidden="true">
        <path
          fill="#FFC107"
          d="M43.6 20.1H42V20H24v8h11.3C33.7 32.7 29.2 36 24 36c-6.6 0-12-5.4-12-12s5.4-12 12-12c3.1 0 5.8 1.2 7.9 3.1l5.7-5.7C34 6.1 29.3 4 24 4 12.9 4 4 12.9 4 24s8.9 20 20 20 20-8.9 20-20c0-1.3-.1-2.6-.4-3.9z"
        />
        <path
          fill="#FF3D00"
          d="M6.3 14.7l6.6 4.8C14.7 15.1 19 12 24 12c3.1 0 5.8 1.2 7.9 3.1l5.7-5.7C34 6.1 29.3 4 24 4 16.3 4 9.7 8.3 6.3 14.7z"
        />
        <path
          fill="#4CAF50"
          d="M24 44c5.2 0 9.9-2 13.4-5.2l-6.2-5.2C29.2 35.1 26.7 36 24 36c-5.2 0-9.6-3.3-11.3-7.9l-6.5 5C9.5 39.6 16.2 44 24 44z"
        />
        <path fill="#1976D2" d="M43.6 20.1H42V20H24v8h11.3c-.8 2.2-2.2 4.2-4.1 5.6l6.2 5.2C37 39.2 44 34 44 24c0-1.3-.1-2.6-.4-3.9z" />
      </svg>
    );
  }
  return (
    <svg width="18" height="18" viewBox="0 0 23 23" aria-hidden="true">
      <path fill="#f35325" d="M1 1h10v10H1z" />
      <path fill="#81bc06" d="M12 1h10v10H12z" />
      <path fill="#05a6f0" d="M1 12h10v10H1z" />
      <path fill="#ffba08" d="M12 12h10v10H12z" />
    </svg>
  );
}

/** A full-page link into the server-side sign-in of one provider. */
export function SocialButton({
  provider,
  returnTo,
  isPricing,
  verb,
}: {
  provider: SocialProvider;
  returnTo: string;
  isPricing?: boolean;
  verb: string;
}) {
  return (
    <a href={socialStartUrl(provider, returnTo, isPricing)} className={buttonClass('secondary', 'min-h-11 w-full')}>
      <ProviderIcon provider={provider} />
      {verb} with {providerLabel[provider]}
    </a>
  );
}

/** Google and Microsoft buttons, each shown only when the server has it configured. */
export function SocialButtons({ returnTo, isPricing, verb }: { returnTo: string; isPricing?: boolean; verb: string }) {
  const { signIn } = siteConfig();
  const providers = (['google', 'microsoft'] as const).filter((p) => signIn[p]);
  if (providers.length === 0) return null;
  return (
    <div className="flex flex-col gap-3">
      {providers.map((p) => (
        <SocialButton key={p} provider={p} returnTo={returnTo} isPricing={isPricing} verb={verb} />
      ))}
    </div>
  );
}
