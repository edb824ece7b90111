import { useEffect, useState, type RefObject } from 'react';

/** Space kept between a floating button and the primary action it moves away from. */
const GAP = 8;
/** Below this width a phone's content spans the screen: above the action there is content too. */
const NARROW = 640;

export interface Clearance {
  /** How far to lift the button (px) to sit just above the action. */
  lift: number;
  /** On a phone, lifting it would cover what stands above the action (on /pay: the amounts), so it steps aside until the action scrolls away. */
  hidden: boolean;
}

/**
 * A floating button (the chat's "Help & Support") never covers a primary action (issue 12 item 11:
 * on a 390 px phone it lay on /pay's Pay button and hid the amount). Elements marked
 * `data-primary-action` are watched; while one lies under the button's resting place, the button
 * moves up just above it on a wide screen (it sits in the margin there), and on a phone it steps
 * aside (hidden) until the visitor scrolls the action away, because just above Pay are the amounts.
 */
export function useClearOfPrimaryActions(ref: RefObject<HTMLElement | null>): Clearance {
  const [lift, setLift] = useState(0);
  const [narrow, setNarrow] = useState(false);
  useEffect(() => {
    let frame = 0;
    const measure = () => {
      frame = 0;
      const el = ref.current;
      if (!el) return;
      // The resting rectangle: where the button sits without a lift (its CSS offsets from the corner).
      const style = getComputedStyle(el);
      const bottom = window.innerHeight - parseFloat(style.bottom || '0');
      const right = window.innerWidth - parseFloat(style.right || '0');
      const top = bottom - el.offsetHeight;
      const left = right - el.offsetWidth;
      let needed = 0;
      for (const action of document.querySelectorAll<HTMLElement>('[data-primary-action]')) {
        const r = action.getBoundingClientRect();
        if (r.width === 0 || r.height === 0) continue;
        if (r.bottom > top && r.top < bottom && r.right > left && r.left < right) needed = Math.max(needed, bottom - r.top + GAP);
      }
      setLift((old) => (old === needed ? old : needed));
      setNarrow(window.innerWidth < NARROW);
    };
    const schedule = () => {
      if (!frame) frame = requestAnimationFrame(measure);
    };
    schedule();
    window.addEventListener('scroll', schedule, { passive: true });
    window.addEventListener('resize', schedule);
    // Content that loads later (a quote, an order) moves the actions without a scroll.
    const mutations = new MutationObserver(schedule);
    mutations.observe(document.body, { childList: true, subtree: true });
    const sizes = new ResizeObserver(schedule);
    sizes.observe(document.body);
    return () => {
      if (frame) cancelAnimationFrame(frame);
      window.removeEventListener('scroll', schedule);
      window.removeEventListener('resize', schedule);
      mutations.disconnect();
      sizes.disconnect();
    };
  }, [ref]);
  return narrow ? { lift: 0, hidden: lift > 0 } : { lift, hidden: false };
}
