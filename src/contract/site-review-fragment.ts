// Shared by the API and review.js, which must stay small: no zod here (decision 240).

/** The fragment key that carries the site token into the staging page (`#wc-review=<token>`). */
export const SITE_TOKEN_FRAGMENT = 'wc-review';
/** The fragment key that asks review.js to scroll to a pin and highlight it (`#wc-pin=<id>`). */
export const SITE_PIN_FRAGMENT = 'wc-pin';
/** A site token: 32 random bytes in base64url. */
export const SITE_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;
