// The coupon a shopper applied on /pay, kept for the browser tab (sessionStorage) so that Cancel in
// the checkout or the browser's Back never drops it silently and shows the full price. It is forgotten when the shopper removes it or the advance is paid.
const KEY = 'checkout.coupon';

export function keptCoupon(): string | null {
  try {
    return sessionStorage.getItem(KEY);
  } catch {
    return null;
  }
}

export function keepCoupon(code: string | null) {
  try {
    if (code) sessionStorage.setItem(KEY, code);
    else sessionStorage.removeItem(KEY);
  } catch {
    // Storage refused (private mode): the coupon still holds for this page.
  }
}
