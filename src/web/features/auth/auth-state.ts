// Router state passed between the sign-in screens (spec §2: email_pass, name_pass, isPricing).
export interface AuthRouteState {
  email_pass?: string;
  name_pass?: string | null;
  isPricing?: boolean;
  /** From auth/verifyOtp or auth/authLogin; user/addUser needs it. */
  signupTicket?: string;
  /** Where to go after the details form (spec §4: social sign-up goes to /). */
  next?: string;
}

export const readAuthState = (state: unknown): AuthRouteState =>
  state && typeof state === 'object' ? (state as AuthRouteState) : {};

const RETURN_KEY = 'auth.return-to';

/**
 * A signed-in page reached while signed out (the receipt's "View your order" → /status/:id)
 * remembers itself, and sign-in returns there (issue 12 item 13). Only same-site paths.
 */
export function rememberReturnTo(path: string) {
  try {
    if (path.startsWith('/') && !path.startsWith('//')) sessionStorage.setItem(RETURN_KEY, path);
  } catch {
    // storage unavailable: sign-in goes to the dashboard
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
    const path = sessionStorage.getItem(RETURN_KEY);
    return path && path.startsWith('/') && !path.startsWith('//') ? path : null;
  } catch {
    return null;
  }
}

/** After sign-in: the deep link that sent the visitor here, /pricing when they came from pricing, else the dashboard (spec §2 Login). */
export const afterSignIn = (isPricing?: boolean) => returnTo() ?? (isPricing ? '/pricing' : '/dashboard');

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
