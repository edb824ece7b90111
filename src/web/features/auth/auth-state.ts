import { isBackOffice } from '../../../domain/roles.ts';

// Router state passed between the sign-in screens (spec §2: email_pass, name_pass, isPricing).
export interface AuthRouteState {
  email_pass?: string;
  name_pass?: string | null;
  isPricing?: boolean;
  /** From auth/verifyOtp or auth/authLogin; user/addUser needs it. */
  signupTicket?: string;
  /** The address is on the owner's staff list: the details form asks only a name (docs/decisions/276-staff-onboarding-and-payment-ids.md). */
  staff?: boolean;
  /** Where to go after the details form (spec §4: social sign-up goes to /). */
  next?: string;
}

export const readAuthState = (state: unknown): AuthRouteState => (state && typeof state === 'object' ? (state as AuthRouteState) : {});

const RETURN_KEY = 'auth.return-to';

/**
 * `path` if it is a path on this site, else null: never another origin (`//evil.com`,
 * `/\evil.com`, `https://evil`), a scheme (`javascript:`) or control characters — so a
 * remembered return target can never turn sign-in into an open redirect.
 */
export function safeReturnPath(path: unknown): string | null {
  if (typeof path !== 'string' || path.length > 2000 || !path.startsWith('/')) return null;
  // Browsers read a backslash as a slash and drop tabs and newlines: '/\evil.com' is '//evil.com'.
  if (/[\\\u0000-\u001f\u007f]/.test(path) || path.startsWith('//')) return null;
  try {
    const base = 'https://this.site';
    const url = new URL(path, base);
    const same = `${url.pathname}${url.search}${url.hash}`;
    // Dot segments can fold into a leading '//' ('/a/..//evil.com'): checked again once resolved.
    if (url.origin !== base || same.startsWith('//')) return null;
    // The sign-in screens themselves are no destination (signed in, /login sends on: a loop).
    return /^\/(login|signup|logout)(\/|$)/i.test(url.pathname) ? null : same;
  } catch {
    return null;
  }
}

/**
 * A signed-in page reached while signed out (the receipt's "View your order" → /status/:id, a
 * deep link into the back office) remembers itself, and sign-in returns there. Only same-site paths.
 */
export function rememberReturnTo(path: string) {
  const safe = safeReturnPath(path);
  try {
    if (safe) sessionStorage.setItem(RETURN_KEY, safe);
  } catch {
    // storage unavailable: sign-in goes to the default page
  }
}

export function forgetReturnTo() {
  try {
    sessionStorage.removeItem(RETURN_KEY);
  } catch {
    // nothing to forget
  }
}

function returnTo(): string | null {
  try {
    return safeReturnPath(sessionStorage.getItem(RETURN_KEY));
  } catch {
    return null;
  }
}

/**
 * After sign-in: the deep link that sent the visitor here; /pricing when they came from pricing
 * (spec §2 Login); the back office for the owner and staff (decision 125: the founder is not a
 * customer, the customer dashboard has nothing for them, nor for staff); else the dashboard.
 */
export const afterSignIn = (isPricing?: boolean, role?: string | null) =>
  returnTo() ?? (isPricing ? '/pricing' : isBackOffice(role) ? '/admin' : '/dashboard');

/**
 * Where the details form goes once the account exists: the destination was chosen before (by
 * afterSignIn, without a role yet), so its customer default becomes the back office for an invited
 * staff member signing up.
 */
export const afterDetails = (next: string | undefined, role?: string | null) => {
  const target = next ?? '/dashboard';
  return target === '/dashboard' && isBackOffice(role) ? '/admin' : target;
};

// The details form survives a reload within the tab; the ticket itself expires on the server.
const DETAILS_KEY = 'signup-details';

export function rememberDetailsState(state: AuthRouteState) {
  try {
    sessionStorage.setItem(DETAILS_KEY, JSON.stringify(state));
  } catch {
    // storage unavailable: the router state still works
  }
}

export function recallDetailsState(): AuthRouteState {
  try {
    return readAuthState(JSON.parse(sessionStorage.getItem(DETAILS_KEY) ?? 'null'));
  } catch {
    return {};
  }
}

export function forgetDetailsState() {
  try {
    sessionStorage.removeItem(DETAILS_KEY);
  } catch {
    // nothing to forget
  }
}
