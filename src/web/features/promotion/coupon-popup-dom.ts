import type { Promotion } from '../../../contract/promotion.ts';
import { COPIED_MS, copyButtonLabel, copyButtonStateClasses, copyButtonText } from '../../components/ui/copy-button-style.ts';
import { featuredPromotion } from './featured-promotion.ts';
import { IMAGE_FIRST_MS, popupHeadline, rememberDismissed } from './popup-rule.ts';

/** The id of the <template> the prerender writes with CouponPopup's markup (scripts/prerender-entry.tsx). */
export const COUPON_POPUP_TEMPLATE_ID = 'coupon-popup-template';

/**
 * The coupon popup of a prerendered page without React (docs/decisions/115; decision 012 for when
 * it opens — islands.ts runs this only then): CouponPopup's markup, from the page's <template>,
 * filled in with the promotion and run as the component does — the image alone for 2 s on a phone,
 * then the text; Escape, ×, the backdrop and the dismiss link close it for the session; 'Go to
 * Checkout' closes it and goes to /pricing; the copy button says COPIED! for 5 s.
 */
export function openCouponPopup(el: HTMLElement) {
  void featuredPromotion().then((p) => p && open(el, p));
}

function open(el: HTMLElement, promotion: Promotion) {
  const template = document.getElementById(COUPON_POPUP_TEMPLATE_ID);
  if (!(template instanceof HTMLTemplateElement)) return;
  el.replaceChildren(template.content.cloneNode(true));
  const part = <T extends HTMLElement = HTMLElement>(selector: string) => el.querySelector<T>(selector)!;
  part('[data-popup-headline]').textContent = popupHeadline(promotion);
  part('[data-popup-percent]').textContent = `${promotion.percent}% OFF`;
  part('[data-popup-code]').textContent = promotion.code;

  const backdrop = part('[data-testid="coupon-popup-backdrop"]');
  const dialog = part('[data-testid="coupon-popup"]');
  const previous = document.activeElement as HTMLElement | null;
  dialog.focus();
  const phase = window.setTimeout(() => (dialog.dataset.phase = 'text'), IMAGE_FIRST_MS);
  const onKey = (e: KeyboardEvent) => e.key === 'Escape' && close();
  window.addEventListener('keydown', onKey);

  function close() {
    window.clearTimeout(phase);
    window.removeEventListener('keydown', onKey);
    el.replaceChildren();
    rememberDismissed(promotion.code);
    previous?.focus?.();
  }
  backdrop.addEventListener('click', (e) => e.target === backdrop && close());
  part('[data-popup-close]').addEventListener('click', close);
  part('[data-popup-dismiss]').addEventListener('click', close);
  part('[data-popup-checkout]').addEventListener('click', () => {
    close();
    // A plain page change: /pricing is a prerendered page.
    if (window.location.pathname !== '/pricing') window.location.assign('/pricing');
  });
  runCopyButton(part<HTMLButtonElement>('[data-copy-button]'), promotion.code);
}

/** The CopyButton's behaviour on its prerendered markup. */
function runCopyButton(button: HTMLButtonElement, value: string) {
  let reset = 0;
  const show = (copied: boolean) => {
    button.classList.remove(...copyButtonStateClasses(!copied).split(' '));
    button.classList.add(...copyButtonStateClasses(copied).split(' '));
    button.setAttribute('aria-label', copyButtonLabel(value, copied));
    button.querySelector('svg')!.classList.toggle('hidden', !copied);
    button.querySelector('span')!.textContent = copyButtonText(copied);
  };
  show(false);
  button.addEventListener('click', () => {
    navigator.clipboard.writeText(value).then(
      () => {
        show(true);
        window.clearTimeout(reset);
        reset = window.setTimeout(() => show(false), COPIED_MS);
      },
      // Spec §8: a clipboard failure is logged only.
      (err: unknown) => console.log('copy failed', err),
    );
  });
}
