// Loopback ports of the e2e stack (tests/e2e/stack.ts). E2E_PORT_BASE moves them all, so that
// two suites can run side by side on one machine.
const base = Number(process.env.E2E_PORT_BASE ?? 4300);

export const E2E = {
  app: base + 10,
  /** A second instance with the back office's passkey step-up on: WebAuthn needs a host name. */
  passkeyApp: base + 11,
  smtp: base + 25,
  smtpHttp: base + 26,
  oidc: base + 30,
  razorpay: base + 40,
  llm: base + 50,
  geo: base + 60,
  /** The test stack's own control port (decision 099): runs the job pass on demand. */
  control: base + 70,
  /** The local push service's control port (tests/fakes/push-service.ts); the service itself takes any free port. */
  push: base + 80,
  /** The customer's staging site in tests/e2e/site-review.spec.ts. */
  staging: base + 90,
} as const;

export const APP_URL = `http://127.0.0.1:${E2E.app}`;
/** The step-up instance: `localhost`, since WebAuthn refuses an IP address as relying party. */
export const PASSKEY_APP_URL = `http://localhost:${E2E.passkeyApp}`;
export const MAILBOX_URL = `http://127.0.0.1:${E2E.smtpHttp}`;
export const CONTROL_URL = `http://127.0.0.1:${E2E.control}`;
export const PUSH_CONTROL_URL = `http://127.0.0.1:${E2E.push}`;
/** The seller printed on the stack's tax invoices. */
export const E2E_SELLER = { legalName: 'E2E Web Studio Pvt Ltd', taxId: '29ABCDE1234F1ZW' };
/** The GSTIN of the step-up instance, the one with TAX_REGIME=gst (tests/e2e/gst.spec.ts). */
export const E2E_GST_SELLER_GSTIN = '29AAGCB7383J1Z4';
export const ADMIN_EMAIL = 'founder@example.com';
/** Also in ADMIN_EMAILS, and signed in by no spec but the one that tests the founder's first sign-in. */
export const FIRST_ADMIN_EMAIL = 'cofounder@example.com';
export const ADMIN_EMAILS = [ADMIN_EMAIL, FIRST_ADMIN_EMAIL];

/** The stack's configured end of the referral programme ( the page shows it). */
export const REFERRAL_VALID_UNTIL = '2027-01-31T23:59:59Z';
