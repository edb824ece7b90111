import { useEffect, useState } from 'react';

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
    // Private mode or storage full: the next visit animates nothing new, nothing worse.
  }
}

const reducedMotion = () => typeof window !== 'undefined' && window.matchMedia?.('(prefers-reduced-motion: reduce)').matches === true;

/**
 * The tracker shows the true count at once (docs/decisions/336-tracker-and-phone-country.md). Only
 * the stages completed since this browser last showed the order are animated: the answer is the
 * count seen before, so stages `from … done - 1` are new. A first visit on a device, or reduced
 * motion, animates nothing (`from === done`). Stages completed while the page is open count as new.
 */
export function useNewStagesFrom(done: number, orderId: string): number {
  const [from] = useState(() => {
    const seen = lastSeen(orderId);
    return reducedMotion() || seen === 0 ? done : Math.min(seen, done);
  });
  useEffect(() => {
    remember(orderId, done);
  }, [orderId, done]);
  return reducedMotion() ? done : Math.min(from, done);
}
