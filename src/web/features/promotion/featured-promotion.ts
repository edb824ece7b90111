import { getPromotionEndpoint } from '../../../contract/endpoints.ts';
import type { Promotion } from '../../../contract/promotion.ts';
import { callEndpoint } from '../../lib/api.ts';

// No React here: the islands entry asks for the promotion before React loads (popup or not).
let request: Promise<Promotion | null> | null = null;

/** The featured promotion from GET /promotion, fetched once per page load and shared. */
export function featuredPromotion(): Promise<Promotion | null> {
  request ??= callEndpoint(getPromotionEndpoint)
    .then((r) => r.promotion)
    .catch(() => {
      request = null;
      return null;
    });
  return request;
}
