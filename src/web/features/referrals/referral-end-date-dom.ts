import { siteConfig } from '../../lib/site-config.ts';
import { referralEndText } from './referral-end-date-text.ts';

/** ReferralEndDate on a prerendered page without React (docs/decisions/115). */
export function runReferralEndDate(el: HTMLElement) {
  const line = el.querySelector<HTMLElement>('[data-testid="referral-valid-until"]')!;
  line.textContent = referralEndText(siteConfig().referralValidUntil);
  line.classList.remove('invisible');
}
