import { useEffect, useState } from 'react';

const TICK_MS = 500;

/** Spec §4: completed steps are ticked one by one, 500 ms apart (at once with reduced motion). */
export function useTicker(target: number): number {
  const [shown, setShown] = useState(0);
  useEffect(() => {
    const reduce = typeof window !== 'undefined' && window.matchMedia?.('(prefers-reduced-motion: reduce)').matches;
    if (reduce) {
      setShown(target);
      return;
    }
    if (shown === target) return;
    const id = setTimeout(() => setShown((n) => (n < target ? n + 1 : target)), shown === 0 ? 0 : TICK_MS);
    return () => clearTimeout(id);
  }, [shown, target]);
  return shown;
}
