// A floating button (the chat's "Help & Support") never covers a primary action (
// on a 390 px phone it lay on /pay's Pay button and hid the amount; on /pricing
// it lay on the plan's last features). Plain DOM, no React: the launcher of a prerendered page
// keeps clear before React is there (islands.ts), and useClearOfPrimaryActions() wraps it after.

/** Space kept between a floating button and the primary action it moves away from. */
const GAP = 8;
/** Below this width a phone's content spans the screen: above the action there is content too. */
const NARROW = 640;

/** The controls of a form a floating button must not lie on at phone width. */
const FORM_CONTROLS = 'form input:not([type="hidden"]), form textarea, form select, form button, [role="radio"], [role="checkbox"]';
/** Floating layers (the chat's own panel, dialogs) are above the button's concern. */
const FLOATING = '[data-testid="chat-widget"], [role="dialog"]';
const isField = (e: Element | null) =>
  !!e &&
  (e.matches('input:not([type="checkbox"]):not([type="radio"]):not([type="button"]):not([type="submit"]), textarea, select') ||
    (e as HTMLElement).isContentEditable);

export interface Clearance {
  /** How far to lift the button (px) to sit just above the action. */
  lift: number;
  /** On a phone, lifting it would cover what stands above the action (on /pay: the amounts), so it steps aside until the action scrolls away. */
  hidden: boolean;
}

/** The button's inline style for a clearance (the same in React and in plain DOM). */
export const clearanceStyle = ({ lift, hidden }: Clearance): { visibility?: 'hidden'; opacity?: number; transform?: string } | undefined =>
  hidden ? { visibility: 'hidden', opacity: 0 } : lift ? { transform: `translateY(-${lift}px)` } : undefined;

/**
 * Watches the elements marked `data-primary-action`; while one lies under the button's resting
 * place, the button moves up just above it on a wide screen (it sits in the margin there), and on a
 * phone it steps aside (hidden) until the visitor scrolls the action away, because just above Pay
 * are the amounts. `onChange` hears every new clearance; the returned function stops watching.
 */
export function watchClearOfPrimaryActions(el: HTMLElement, onChange: (c: Clearance) => void): () => void {
  let frame = 0;
  let last: Clearance = { lift: 0, hidden: false };
  const measure = () => {
    frame = 0;
    // The resting rectangle: where the button sits without a lift (its CSS offsets from the corner).
    const style = getComputedStyle(el);
    const bottom = window.innerHeight - parseFloat(style.bottom || '0');
    const right = window.innerWidth - parseFloat(style.right || '0');
    const top = bottom - el.offsetHeight;
    const left = right - el.offsetWidth;
    const narrow = window.innerWidth < NARROW;
    let needed = 0;
    // On a phone every form control counts too: the button never lies over a field or a button of
    // a form (a brief's last question, a pin's Save), and while the person types it steps aside.
    for (const action of document.querySelectorAll<HTMLElement>(
      narrow ? `[data-primary-action], ${FORM_CONTROLS}` : '[data-primary-action]',
    )) {
      if (el.contains(action) || action.closest(FLOATING)) continue;
      const r = action.getBoundingClientRect();
      if (r.width === 0 || r.height === 0) continue;
      if (r.bottom > top && r.top < bottom && r.right > left && r.left < right) needed = Math.max(needed, bottom - r.top + GAP);
    }
    const typing = narrow && isField(document.activeElement) && !document.activeElement?.closest(FLOATING);
    const next = narrow ? { lift: 0, hidden: needed > 0 || typing } : { lift: needed, hidden: false };
    if (next.lift !== last.lift || next.hidden !== last.hidden) onChange((last = next));
  };
  const schedule = () => {
    if (!frame) frame = requestAnimationFrame(measure);
  };
  schedule();
  window.addEventListener('scroll', schedule, { passive: true });
  window.addEventListener('resize', schedule);
  document.addEventListener('focusin', schedule);
  document.addEventListener('focusout', schedule);
  // Content that loads later (a quote, an order) moves the actions without a scroll.
  const mutations = new MutationObserver(schedule);
  mutations.observe(document.body, { childList: true, subtree: true });
  const sizes = new ResizeObserver(schedule);
  sizes.observe(document.body);
  return () => {
    if (frame) cancelAnimationFrame(frame);
    window.removeEventListener('scroll', schedule);
    window.removeEventListener('resize', schedule);
    document.removeEventListener('focusin', schedule);
    document.removeEventListener('focusout', schedule);
    mutations.disconnect();
    sizes.disconnect();
  };
}
