import { useHydrated } from '../../components/ui/use-hydrated.ts';
import { siteConfig } from '../../lib/site-config.ts';

const day = (iso: string) => new Date(iso).toLocaleDateString('en-US', { month: 'long', day: 'numeric', year: 'numeric', timeZone: 'UTC' });

/**
 * The last line of the referral terms (issue 12.12; an island, inside its list item): the configured
 * REFERRAL_VALID_UNTIL, read from the site configuration the server puts into the page when it is
 * served — the page itself is prerendered at build time, when the running configuration is not
 * known. The line is reserved in the prerendered HTML and filled in once the page runs, so nothing moves.
 */
export function ReferralEndDate() {
  const hydrated = useHydrated();
  const until = hydrated ? siteConfig().referralValidUntil : null;
  return (
    <span data-testid="referral-valid-until" className={hydrated ? undefined : 'invisible'}>
      {!hydrated ? 'Valid until' : until ? `Valid until ${day(until)}.` : 'No end date is set.'}
    </span>
  );
}
