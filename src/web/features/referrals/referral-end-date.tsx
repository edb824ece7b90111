import { useHydrated } from '../../components/ui/use-hydrated.ts';
import { siteConfig } from '../../lib/site-config.ts';
import { referralEndText } from './referral-end-date-text.ts';

/**
 * The last line of the referral terms (an island, inside its list item): the configured
 * REFERRAL_VALID_UNTIL, read from the site configuration the server puts into the page when it is
 * served — the page itself is prerendered at build time, when the running configuration is not
 * known. The line is reserved in the prerendered HTML and filled in once the page runs, so nothing
 * moves: on the prerendered page by referral-end-date-dom.ts, without React (decision 115).
 */
export function ReferralEndDate() {
  const hydrated = useHydrated();
  return (
    <span data-testid="referral-valid-until" className={hydrated ? undefined : 'invisible'}>
      {hydrated ? referralEndText(siteConfig().referralValidUntil) : 'Valid until'}
    </span>
  );
}
