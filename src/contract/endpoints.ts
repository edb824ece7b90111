import type { OperationSpec } from './operation.ts';
import type { getAuthVerifyToken, postAuthLogout } from './auth.ts';
import type { getOrdersActions } from './actions.ts';
import type { getAddons } from './changes.ts';
import type { postChatStart, postChatUnread } from './chat.ts';
import type { postContactAddContact } from './contact.ts';
import type { getCouponGetCouponsByUserIdByUserId } from './coupons.ts';
import type { getGeoWeather } from './geo.ts';
import type { postAlertSendEmail, postAlertSendMessage } from './leads.ts';
import type { getPricingCurrencies } from './pricing.ts';
import type { getPromotion } from './promotion.ts';
import type { getReferralSummary } from './referrals.ts';
import type { getUserGetUserById } from './users.ts';

// Zod-free twins of the operations that the public pages' code calls before React or with the
// islands (docs/decisions/301-zod-free-endpoints.md). An operation module builds its zod schemas
// when it is imported, so importing one would bring zod into the public pages' 25 KB
// (docs/decisions/115-dom-islands-before-interaction.md). This module imports the operations as
// types only: nothing of them is in the bundle, and each endpoint's method and path are checked
// by the compiler against its operation's (a literal type), its input and answer typed from it.
// Everything else calls the operation itself (`call`, `useOperation`).

/** An operation's method and path, typed by the operation (`callEndpoint` in src/web/lib/api.ts). */
export interface Endpoint<Op extends OperationSpec> {
  readonly method: Op['method'];
  readonly path: Op['path'];
  /** Never set: carries the operation's type. */
  readonly operation?: Op;
}

/** The endpoint of `Op`: its method and path must be the operation's, letter for letter. */
const endpoint = <Op extends OperationSpec>(method: Op['method'], path: Op['path']): Endpoint<Op> => ({ method, path });

export const getGeoWeatherEndpoint = endpoint<typeof getGeoWeather>('GET', '/api/v1/geo/weather');
export const getPromotionEndpoint = endpoint<typeof getPromotion>('GET', '/api/v1/promotion');
export const getPricingCurrenciesEndpoint = endpoint<typeof getPricingCurrencies>('GET', '/api/v1/pricing/currencies');
export const postAlertSendEmailEndpoint = endpoint<typeof postAlertSendEmail>('POST', '/api/v1/alert/sendEmail');
export const postAlertSendMessageEndpoint = endpoint<typeof postAlertSendMessage>('POST', '/api/v1/alert/sendMessage');
export const postContactAddContactEndpoint = endpoint<typeof postContactAddContact>('POST', '/api/v1/contact/addContact');
// /pricing's "Optional extras" in the visitor's currency (src/web/features/changes/optional-extras-dom.ts).
export const getAddonsEndpoint = endpoint<typeof getAddons>('GET', '/api/v1/addons');
export const postChatStartEndpoint = endpoint<typeof postChatStart>('POST', '/api/v1/chat/start');
export const postChatUnreadEndpoint = endpoint<typeof postChatUnread>('POST', '/api/v1/chat/unread');
// The session, read by every island that shows who is signed in (src/web/lib/session.tsx, signed-in.ts).
export const getAuthVerifyTokenEndpoint = endpoint<typeof getAuthVerifyToken>('GET', '/api/v1/auth/verifyToken');
export const postAuthLogoutEndpoint = endpoint<typeof postAuthLogout>('POST', '/api/v1/auth/logout');
export const getUserGetUserByIdEndpoint = endpoint<typeof getUserGetUserById>('GET', '/api/v1/user/getUserById');
export const getCouponGetCouponsByUserIdByUserIdEndpoint = endpoint<typeof getCouponGetCouponsByUserIdByUserId>(
  'GET',
  '/api/v1/coupon/getCouponsByUserId/:userId',
);
// The navigation's count of what waits for the customer (src/web/lib/order-actions.ts, the header island's).
export const getOrdersActionsEndpoint = endpoint<typeof getOrdersActions>('GET', '/api/v1/orders/actions');
// /referAndEarn's panel, in the page's island (src/web/features/referrals/referral-panel.tsx).
export const getReferralSummaryEndpoint = endpoint<typeof getReferralSummary>('GET', '/api/v1/referral/summary');
