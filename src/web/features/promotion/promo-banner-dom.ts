import type { Promotion } from '../../../contract/promotion.ts';
import { bannerTimerText, countdown } from '../../../domain/promotion.ts';
import { featuredPromotion } from './featured-promotion.ts';

/**
 * The promotion banner of a prerendered page without React (docs/decisions/115): fills the marked
 * parts of the prerendered frame (PromoBanner's markup) and ticks the countdown every second with
 * the browser's clock (decision 012); × removes the banner. islands.ts runs it only when GET
 * /promotion names a featured promotion.
 */
export function runPromoBanner(el: HTMLElement) {
  void featuredPromotion().then((p) => (p ? show(el, p) : el.replaceChildren()));
}

function show(el: HTMLElement, promotion: Promotion) {
  const part = (selector: string) => el.querySelector<HTMLElement>(selector);
  const offer = part('[data-promo-offer]');
  part('[data-promo-percent]')!.textContent = `${promotion.percent}% off`;
  part('[data-promo-code]')!.textContent = promotion.code;
  offer?.classList.remove('invisible');
  offer?.removeAttribute('aria-hidden');
  const link = el.querySelector<HTMLAnchorElement>('a[href="/pricing"]');
  if (link) link.hidden = false;

  const timer = part('[data-testid="promo-countdown"]')!;
  const ends = promotion.endsAt ? Date.parse(promotion.endsAt) : null;
  let interval = 0;
  const tick = () => {
    const left = ends === null ? null : countdown(ends, Date.now());
    timer.textContent = bannerTimerText(ends, left);
    if (left) timer.dataset.expired = String(left.expired);
    if (left?.expired) window.clearInterval(interval); // nothing changes after the end
  };
  tick();
  if (ends !== null && timer.dataset.expired !== 'true') interval = window.setInterval(tick, 1000);
  part('[data-promo-close]')?.addEventListener('click', () => {
    window.clearInterval(interval);
    el.replaceChildren();
  });
}
