import { useEffect, useState } from 'react';
import type { Promotion } from '../../../contract/promotion.ts';
import { featuredPromotion } from './featured-promotion.ts';

export type PromotionState = { status: 'loading' } | { status: 'ready'; promotion: Promotion | null };

export function usePromotion(enabled = true): PromotionState {
  const [state, setState] = useState<PromotionState>({ status: 'loading' });
  useEffect(() => {
    if (!enabled) return;
    let alive = true;
    void featuredPromotion().then((promotion) => alive && setState({ status: 'ready', promotion }));
    return () => {
      alive = false;
    };
  }, [enabled]);
  return state;
}
