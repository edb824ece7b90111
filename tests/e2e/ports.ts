// Fixed loopback ports of the e2e stack (tests/e2e/stack.ts) so specs can reach the fakes.
export const E2E = {
  app: 4310,
  smtp: 4325,
  smtpHttp: 4326,
  oidc: 4330,
  razorpay: 4340,
  llm: 4350,
  geo: 4360,
} as const;

export const APP_URL = `http://127.0.0.1:${E2E.app}`;
export const MAILBOX_URL = `http://127.0.0.1:${E2E.smtpHttp}`;
export const ADMIN_EMAIL = 'founder@example.com';
