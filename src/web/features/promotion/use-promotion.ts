import { useEffect, useState } from 'react';
import type { Promotion, PromotionResponse } from '../../../contract/promotion.ts';
import { api } from '../../lib/api.ts';

export type PromotionState = { status: 'loading' } | { status: 'ready'; promotion: Promotion | null };

let request: Promise<Promotion | null> | null = null;

/** The featured promotion from GET /promotion, fetched once per page load and shared. */
export function usePromotion(enabled = true): PromotionState {
  const [state, setState] = useState<PromotionState>({ status: 'loading' });
  useEffect(() => {
    if (!enabled) return;
    let alive = true;
    request ??= api<PromotionResponse>('GET', 'promotion')
      .then((r) => r.promotion)
      .catch(() => {
        request = null;
        return null;
      });
    void request.then((promotion) => alive && setState({ status: 'ready', promotion }));
    return () => {
      alive = false;
    };
  }, [enabled]);
  return state;
}
