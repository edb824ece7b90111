import { useEffect, useState } from 'react';

const TICK_MS = 500;
const SEEN_KEY = (orderId: string) => `tracker-seen:${orderId}`;

/** How many stages this browser last showed as done for the order (0 if never shown). */
function lastSeen(orderId: string): number {
  try {
    const n = Number(localStorage.getItem(SEEN_KEY(orderId)));
    return Number.isInteger(n) && n > 0 ? n : 0;
  } catch {
    return 0;
  }
}

function remember(orderId: string, done: number) {
  try {
    localStorage.setItem(SEEN_KEY(orderId), String(done));
  } catch {
    // Private mode or storage full: the next visit animates again, nothing worse.
  }
}

/**
 * Spec §4: completed steps are ticked one by one, 500 ms apart (at once with reduced motion) — but
 * only the steps completed since this browser last showed the order (docs/decisions/219-review-and-tracker-polish.md):
 * what was already seen is shown at once, so a return visit never replays the whole count-up.
 */
export function useTicker(target: number, orderId: string): number {
  const [shown, setShown] = useState(() => Math.min(lastSeen(orderId), target));
  useEffect(() => {
    remember(orderId, target);
  }, [orderId, target]);
  useEffect(() => {
    const reduce = typeof window !== 'undefined' && window.matchMedia?.('(prefers-reduced-motion: reduce)').matches;
    if (reduce || shown > target) {
      setShown(target);
      return;
    }
    if (shown === target) return;
    const id = setTimeout(() => setShown((n) => (n < target ? n + 1 : target)), shown === 0 ? 0 : TICK_MS);
    return () => clearTimeout(id);
  }, [shown, target]);
  return shown;
}
