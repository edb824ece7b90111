import { useEffect, useState, type RefObject } from 'react';
import { type Clearance, watchClearOfPrimaryActions } from './clear-of-primary-actions.ts';

export type { Clearance } from './clear-of-primary-actions.ts';

/** A floating button's clearance of the primary actions (clear-of-primary-actions.ts), as state. */
export function useClearOfPrimaryActions(ref: RefObject<HTMLElement | null>): Clearance {
  const [clearance, setClearance] = useState<Clearance>({ lift: 0, hidden: false });
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    return watchClearOfPrimaryActions(el, setClearance);
  }, [ref]);
  return clearance;
}
