import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isIP } from 'node:net';
import { z } from 'zod';
import type { PublicSiteConfig } from '../contract/site.ts';
import { isTimeZone } from '../contract/notification-preferences.ts';
import { CURRENCIES, parseCurrencyTable } from '../domain/currencies.ts';
import { INDIA, findCountryByCode } from '../domain/countries.ts';
import { maintenancePriceText } from '../domain/maintenance-plan.ts';
import { isValidInvoiceFormat } from '../domain/invoice-number.ts';
import { gstinProblem, stateByCode } from '../domain/gst.ts';
import { businessHoursProblem } from '../domain/business-hours.ts';

// Every operator-facing setting lives here. A bad value stops the server with the
// variable's name, never a stack trace.
const optionalString = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === '' ? undefined : v.trim()));

const flag = z
  .string()
  .optional()
  .transform((v) => v === '1' || v === 'true');

const list = z
  .string()
  .optional()
  .transform((v) =>
    (v ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
  );

const url = (name: string) =>
  optionalString.refine(
    (v) =>
      v === undefined || /^https?:\/\//.test(v) || /^postgres(ql)?:\/\//.test(v) || /^redis(s)?:\/\//.test(v) || /^smtps?:\/\//.test(v),
    {
      message: `${name} must be a URL`,
    },
  );

export const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  PUBLIC_URL: optionalString,
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: url('DATABASE_URL'),
  REDIS_URL: url('REDIS_URL'),
  CORS_ORIGINS: list,
  TRUST_PROXY: optionalString,
  ADMIN_EMAILS: list,
  SMTP_URL: url('SMTP_URL'),
  MAIL_FROM: optionalString,
  RAZORPAY_KEY_ID: optionalString,
  RAZORPAY_KEY_SECRET: optionalString,
  RAZORPAY_WEBHOOK_SECRET: optionalString,
  RAZORPAY_API_URL: z.string().url().default('https://api.razorpay.com'),
  RAZORPAY_CHECKOUT_URL: z.string().url().default('https://checkout.razorpay.com/v1/checkout.js'),
  GOOGLE_CLIENT_ID: optionalString,
  GOOGLE_CLIENT_SECRET: optionalString,
  GOOGLE_ISSUER: z.string().url().default('https://accounts.google.com'),
  MICROSOFT_CLIENT_ID: optionalString,
  MICROSOFT_CLIENT_SECRET: optionalString,
  MICROSOFT_TENANT: z.string().default('common'),
  MICROSOFT_ISSUER: optionalString,
  // Sign-in by code: the spec's 20 s resend wait and hourly caps. Tests may loosen them.
  OTP_RESEND_SECONDS: z.coerce.number().int().min(0).max(3600).default(20),
  OTP_MAX_PER_EMAIL_HOUR: z.coerce.number().int().min(1).default(5),
  OTP_MAX_PER_IP_HOUR: z.coerce.number().int().min(1).default(30),
  /** Per-minute cap per IP on the sign-in routes strangers can call (verify routes get 3×). */
  AUTH_MAX_PER_IP_MINUTE: z.coerce.number().int().min(1).default(10),
  LLM_BASE_URL: url('LLM_BASE_URL'),
  LLM_API_KEY: optionalString,
  LLM_MODEL: optionalString,
  LLM_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(15_000),
  GEOIP_URL: z.string().url().default('http://ip-api.com/json'),
  WEATHER_URL: z.string().url().default('https://api.openweathermap.org/data/2.5/weather'),
  WEATHER_API_KEY: optionalString,
  // Public site: lead/contact forms per IP per minute, outside lookups' timeout and cache.
  PUBLIC_FORMS_MAX_PER_IP_MINUTE: z.coerce.number().int().min(1).default(5),
  /** Live chats one visitor address may start per minute (chat/start). */
  CHAT_STARTS_MAX_PER_IP_MINUTE: z.coerce.number().int().min(1).default(10),
  /** Open chat sockets per visitor address on one instance; at the bound the oldest idle one goes (decision 106). */
  CHAT_SOCKETS_MAX_PER_IP: z.coerce.number().int().min(1).max(100_000).default(20),
  /**
   * When the agency answers the live chat (docs/decisions/347-chat-availability-canned-replies-csat.md):
   * days, hours and IANA time zone, e.g. "Mon-Sat 10:00-19:00 Asia/Kolkata". Outside them, and while the
   * console is set "away", the widget says when to expect a reply and continues by e-mail.
   */
  CHAT_BUSINESS_HOURS: z
    .string()
    .default('Mon-Sat 10:00-19:00 Asia/Kolkata')
    .refine((v) => businessHoursProblem(v) === null, { message: 'CHAT_BUSINESS_HOURS must look like "Mon-Sat 10:00-19:00 Asia/Kolkata"' }),
  // WhatsApp notices through the Cloud API (docs/decisions/345-whatsapp-notices-and-consent.md): none
  // is sent unless the phone number id and the token are set.
  WHATSAPP_API_URL: z.string().url().default('https://graph.facebook.com/v21.0'),
  WHATSAPP_PHONE_NUMBER_ID: optionalString,
  WHATSAPP_TOKEN: optionalString,
  /** What Meta's webhook verification sends as hub.verify_token. */
  WHATSAPP_VERIFY_TOKEN: optionalString,
  /** The app secret that signs Meta's webhook calls (X-Hub-Signature-256). */
  WHATSAPP_APP_SECRET: optionalString,
  WHATSAPP_TIMEOUT_MS: z.coerce.number().int().min(100).max(60000).default(8000),
  GEO_TIMEOUT_MS: z.coerce.number().int().min(50).max(10_000).default(1500),
  WEATHER_CACHE_SECONDS: z.coerce.number().int().min(0).default(600),
  ALLOW_TEST_PAYMENTS: flag,
  // Orders and money: currency table, referral end date, test checkout, reconciliation.
  CURRENCY_TABLE: optionalString.superRefine((v, ctx) => {
    if (v === undefined) return;
    try {
      parseCurrencyTable(v);
    } catch (err) {
      ctx.addIssue({ code: 'custom', message: `CURRENCY_TABLE ${(err as Error).message}` });
    }
  }),
  REFERRAL_VALID_UNTIL: optionalString.refine((v) => v === undefined || !Number.isNaN(Date.parse(v)), {
    message: 'REFERRAL_VALID_UNTIL must be an ISO date, e.g. 2027-01-31T23:59:59Z',
  }),
  TEST_PAYMENTS_SECRET: optionalString,
  // The phone's country when the visitor's location is unknown (docs/decisions/336-tracker-and-phone-country.md).
  DEFAULT_PHONE_COUNTRY: z
    .string()
    .trim()
    .default('IN')
    .refine((code) => findCountryByCode(code) !== undefined, {
      message: 'DEFAULT_PHONE_COUNTRY must be an ISO 3166-1 alpha-2 country code, e.g. IN',
    }),
  RAZORPAY_TIMEOUT_MS: z.coerce.number().int().min(100).max(60000).default(8000),
  // The maintenance plan's monthly price in the base currency, converted like every other price
  // (decision 175).
  MAINTENANCE_MONTHLY_PRICE: z.coerce.number().positive().max(100000).default(49),
  PAYMENT_RECONCILE_SECONDS: z.coerce.number().int().min(0).max(86400).default(300),
  ALLOW_DEV_MAILBOX: flag,
  // Prometheus metrics at /metrics (docs/decisions/065): refused unless the caller's address is in
  // METRICS_ALLOW (IPs or CIDRs) or it sends `Authorization: Bearer <METRICS_TOKEN>`. Neither set = off.
  METRICS_ALLOW: list.superRefine((entries, ctx) => {
    for (const e of entries) {
      const [ip, bits, extra] = e.split('/');
      const family = isIP(ip ?? '');
      const max = family === 6 ? 128 : 32;
      if (!family || extra !== undefined || (bits !== undefined && !(/^\d+$/.test(bits) && Number(bits) <= max))) {
        ctx.addIssue({ code: 'custom', message: `METRICS_ALLOW: "${e}" is not an IP address or CIDR (e.g. 10.0.0.0/8, ::1)` });
      }
    }
  }),
  METRICS_TOKEN: optionalString.refine((v) => v === undefined || v.length >= 16, {
    message: 'METRICS_TOKEN must be at least 16 characters (e.g. openssl rand -hex 32)',
  }),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  // Business identity: configuration with neutral defaults, never a real person.
  BRAND_NAME: z.string().default('Webcraft Studio'),
  BRAND_ADDRESS: z.string().default('HSR Layout, Bangalore, India - 560103'),
  BRAND_PHONE: z.string().default('+91 00000 00000'),
  BRAND_EMAIL: z.string().default('support@example.com'),
  FOUNDER_NAME: z.string().default('Our founder'),
  SOCIAL_WHATSAPP: z.string().default('https://wa.me/910000000000'),
  SOCIAL_FACEBOOK: z.string().default('https://www.facebook.com/'),
  SOCIAL_LINKEDIN: z.string().default('https://www.linkedin.com/'),
  SOCIAL_YOUTUBE: z.string().default('https://www.youtube.com/'),
  SOCIAL_TWITTER: z.string().default('https://x.com/'),
  SOCIAL_INSTAGRAM: z.string().default('https://www.instagram.com/'),
  // Agency back office: invoices, reminders, abandoned checkouts, the funnel.
  SELLER_LEGAL_NAME: optionalString,
  SELLER_ADDRESS: optionalString,
  SELLER_TAX_ID: optionalString.refine((v) => v === undefined || /^[A-Za-z0-9./ -]{1,20}$/.test(v), {
    message: 'SELLER_TAX_ID must be 1–20 letters, digits, - / .',
  }),
  INVOICE_NUMBER_FORMAT: z
    .string()
    .default('INV/{fy}/{seq:4}')
    .refine(isValidInvoiceFormat, { message: 'INVOICE_NUMBER_FORMAT needs {fy} and {seq} (or {seq:N}), at most 40 characters' }),
  CREDIT_NOTE_NUMBER_FORMAT: z
    .string()
    .default('CN/{fy}/{seq:4}')
    .refine(isValidInvoiceFormat, { message: 'CREDIT_NOTE_NUMBER_FORMAT needs {fy} and {seq}' }),
  INVOICE_FY_START_MONTH: z.coerce.number().int().min(1).max(12).default(4),
  INVOICE_TIME_ZONE: z
    .string()
    .default('Asia/Kolkata')
    .refine(isTimeZone, { message: 'INVOICE_TIME_ZONE must be an IANA time zone, e.g. Asia/Kolkata' }),
  REMINDER_DAYS: z
    .string()
    .default('3,7')
    .refine((v) => /^\s*\d{1,3}(\s*,\s*\d{1,3})*\s*$/.test(v), { message: 'REMINDER_DAYS must be a list of whole days, e.g. 3,7' })
    .transform((v) =>
      v
        .split(',')
        .map(Number)
        .sort((a, b) => a - b),
    ),
  JOBS_POLL_SECONDS: z.coerce.number().int().min(0).max(3600).default(60),
  ABANDONED_CHECKOUT_HOURS: z.coerce.number().int().min(1).max(720).default(24),
  DRAFT_RETENTION_DAYS: z.coerce.number().int().min(1).max(365).default(30),
  FUNNEL_ENABLED: z
    .string()
    .default('1')
    .transform((v) => v === '1' || v === 'true'),
  FUNNEL_MAX_VIEWS_PER_MINUTE: z.coerce.number().int().min(1).default(600),
  /** The due date is the UI approval's UTC day plus this many days (decision 147). */
  DELIVERY_DAYS_AFTER_UI_APPROVAL: z.coerce.number().int().min(1).max(365).default(28),
  /** How long a "Review the live site" link works (decision 240); revoked earlier when the round is decided. */
  SITE_REVIEW_TOKEN_HOURS: z.coerce.number().int().min(1).max(720).default(24),
  // Order files (docs/decisions/140, 141): where the bytes live and how many.
  FILE_STORAGE: z.enum(['local', 's3']).default('local'),
  /** The local driver's folder; default DATA_DIR/files. */
  FILES_DIR: optionalString,
  S3_ENDPOINT: url('S3_ENDPOINT'),
  S3_BUCKET: optionalString,
  S3_REGION: z.string().trim().min(1).default('us-east-1'),
  S3_ACCESS_KEY_ID: optionalString,
  S3_SECRET_ACCESS_KEY: optionalString,
  S3_FORCE_PATH_STYLE: flag,
  MAX_UPLOAD_MB: z.coerce.number().positive().max(1024).default(25),
  ORDER_FILES_QUOTA_MB: z.coerce
    .number()
    .positive()
    .max(1024 * 1024)
    .default(500),
  // "Download all my data" (decision 193): order files beyond this total are left out of one export and listed in it.
  EXPORT_FILES_MAX_MB: z.coerce
    .number()
    .positive()
    .max(1024 * 1024)
    .default(200),
  // Order notices (decision 155): one batched e-mail per order and recipient this long after the oldest unsent notice.
  ORDER_NOTIFY_DELAY_SECONDS: z.coerce
    .number()
    .int()
    .min(0)
    .max(7 * 24 * 3600)
    .default(300),
  // Support after delivery (decision 170): the included support from "Website Delivery",
  // and the first-response target of the founder's support queue.
  SUPPORT_DAYS: z.coerce.number().int().min(0).max(3650).default(365),
  // The signed-in reads' kept answers, in MiB per instance (lib/versioned-answers.ts, decision 341); 0 keeps none.
  READ_CACHE_MB: z.coerce.number().min(0).max(4096).default(32),
  SUPPORT_FIRST_RESPONSE_HOURS: z.coerce
    .number()
    .positive()
    .max(24 * 30)
    .default(24),
  // Accounts people can trust. The back office's second factor (decision 190): every
  // back-office session is confirmed with a passkey within ADMIN_STEP_UP_HOURS; 'off' accepts the risk.
  ADMIN_STEP_UP: z.enum(['passkey', 'off']).default('passkey'),
  ADMIN_STEP_UP_HOURS: z.coerce
    .number()
    .positive()
    .max(24 * 30)
    .default(12),
  /** Invoices and payment records outlive a deleted account this many years (decision 192). */
  INVOICE_RETENTION_YEARS: z.coerce.number().int().min(1).max(30).default(8),
  /** Development and tests: serve the web build from another folder. */
  WEB_DIST_DIR: optionalString,
  // GST (docs/decisions/220-gst-tax-rules.md): `none` = not registered (the default, no GSTIN needed).
  TAX_REGIME: z.enum(['none', 'gst'], { message: 'TAX_REGIME must be none or gst' }).default('none'),
  SELLER_GSTIN: optionalString.refine((v) => v === undefined || gstinProblem(v) === null, {
    message: 'SELLER_GSTIN is not a valid GSTIN (15 capitals: state code, PAN, entity, Z, check character)',
  }),
  /** Taken from SELLER_GSTIN; when also set it must agree. */
  SELLER_STATE_CODE: optionalString.refine((v) => v === undefined || stateByCode(v) !== undefined, {
    message: 'SELLER_STATE_CODE must be a two-digit GST state code, e.g. 29',
  }),
  GST_RATE: z.coerce
    .number({ message: 'GST_RATE must be a number, e.g. 18' })
    .min(0, 'GST_RATE must be between 0 and 28')
    .max(28, 'GST_RATE must be between 0 and 28')
    .refine((v) => Number.isInteger(v * 100), 'GST_RATE may have at most two decimals')
    .default(18),
  GST_SAC: z
    .string()
    .trim()
    .regex(/^99\d{4}$/, 'GST_SAC must be a six-digit services code starting with 99, e.g. 998314')
    .default('998314'),
  GST_LUT_ARN: optionalString.refine((v) => v === undefined || /^[A-Z0-9]{10,20}$/.test(v), {
    message: 'GST_LUT_ARN must be the LUT acknowledgement (ARN): 10–20 capitals and digits',
  }),
  GST_LUT_VALID_UNTIL: optionalString.refine((v) => v === undefined || (/^\d{4}-\d{2}-\d{2}$/.test(v) && !Number.isNaN(Date.parse(v))), {
    message: 'GST_LUT_VALID_UNTIL must be a date, e.g. 2027-03-31',
  }),
  PRICES_INCLUDE_TAX: z
    .enum(['true', 'false', '1', '0'], { message: 'PRICES_INCLUDE_TAX must be true or false' })
    .default('false')
    .transform((v) => v === 'true' || v === '1'),
  // Site care (docs/decisions/325-site-checks-in-the-job-pass.md): each watched site is fetched every
  // SITE_CHECK_INTERVAL_SECONDS; only public addresses unless SITE_CHECK_ALLOW_PRIVATE=1 (tests,
  // staging); domain expiry from RDAP_BASE_URL. SITE_CHECKS=off stops every check and care report
  // (the default under NODE_ENV=test, so that other tests never fetch a seeded order's site).
  SITE_CHECK_INTERVAL_SECONDS: z.coerce
    .number({ message: 'SITE_CHECK_INTERVAL_SECONDS must be a number of seconds' })
    .int()
    .min(30, 'SITE_CHECK_INTERVAL_SECONDS must be at least 30')
    .max(86_400)
    .default(300),
  SITE_CHECK_ALLOW_PRIVATE: flag,
  RDAP_BASE_URL: z
    .string()
    .url('RDAP_BASE_URL must be a URL, e.g. https://rdap.org')
    .default('https://rdap.org')
    .transform((v) => v.replace(/\/+$/, '')),
  SITE_CHECKS: z.enum(['on', 'off'], { message: 'SITE_CHECKS must be on or off' }).optional(),
  // Web Push (docs/decisions/343-web-push.md): the VAPID key pair (URL-safe base64, as
  // `npx web-push generate-vapid-keys` prints it) and the sender's contact. Unset outside production:
  // a pair is generated at first start and kept in DATA_DIR/vapid-keys.json. Unset in production: no push.
  VAPID_PUBLIC_KEY: optionalString.refine((v) => v === undefined || /^[A-Za-z0-9_-]{87}$/.test(v), {
    message: 'VAPID_PUBLIC_KEY must be the URL-safe base64 of a P-256 public key (87 characters)',
  }),
  VAPID_PRIVATE_KEY: optionalString.refine((v) => v === undefined || /^[A-Za-z0-9_-]{43}$/.test(v), {
    message: 'VAPID_PRIVATE_KEY must be the URL-safe base64 of a P-256 private key (43 characters)',
  }),
  VAPID_SUBJECT: optionalString.refine((v) => v === undefined || /^(mailto:|https:\/\/)/.test(v), {
    message: 'VAPID_SUBJECT must be a mailto: or https: URL, e.g. mailto:founder@example.com',
  }),
  // The push services whose endpoints a browser may register (host names; "*.x" for x's subdomains).
  PUSH_SERVICE_HOSTS: z
    .string()
    .default('fcm.googleapis.com,updates.push.services.mozilla.com,*.push.apple.com,*.notify.windows.com')
    .transform((v) =>
      v
        .split(',')
        .map((s) => s.trim().toLowerCase())
        .filter(Boolean),
    ),
  GST_REGISTRATION_THRESHOLD: z.coerce
    .number({ message: 'GST_REGISTRATION_THRESHOLD must be a whole number of rupees' })
    .int('GST_REGISTRATION_THRESHOLD must be a whole number of rupees')
    .min(1, 'GST_REGISTRATION_THRESHOLD must be positive')
    .default(2_000_000),
});

export type Env = z.infer<typeof envSchema>;

export interface Config extends Env {
  publicUrl: string;
  isProduction: boolean;
  /** Absolute path to the built web app; tests may point it elsewhere or leave it missing. */
  webDistDir: string;
  /** 'memory' keeps PGlite in memory (tests); otherwise DATA_DIR is used. */
  dataDir: string | 'memory';
  /** SITE_CHECKS, its default decided: on, except under NODE_ENV=test. */
  siteChecks: boolean;
}

export class ConfigError extends Error {}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.') || '(env)'}: ${i.message}`);
    throw new ConfigError(`Invalid environment:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const config: Config = {
    ...e,
    publicUrl: (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, ''),
    isProduction: e.NODE_ENV === 'production',
    webDistDir: e.WEB_DIST_DIR ? resolve(e.WEB_DIST_DIR) : fileURLToPath(new URL('../../dist/web', import.meta.url)),
    dataDir: e.DATA_DIR,
    siteChecks: (e.SITE_CHECKS ?? (e.NODE_ENV === 'test' ? 'off' : 'on')) === 'on',
    ...overrides,
  };
  assertFileStorage(config);
  assertTaxRegime(config);
  assertVapid(config);
  assertSafeForProduction(config);
  return config;
}

// FILE_STORAGE=s3 needs a bucket, and keys come in pairs (one without the other is a typo, not
// "use the default credential chain").
function assertFileStorage(c: Config) {
  if (c.FILE_STORAGE !== 's3') return;
  const problems: string[] = [];
  if (!c.S3_BUCKET) problems.push('  S3_BUCKET: required when FILE_STORAGE=s3');
  if (Boolean(c.S3_ACCESS_KEY_ID) !== Boolean(c.S3_SECRET_ACCESS_KEY))
    problems.push('  S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY: set both or neither (neither = the AWS default credential chain)');
  if (problems.length) throw new ConfigError(`Invalid environment:\n${problems.join('\n')}`);
}

// TAX_REGIME=gst needs the seller's GSTIN; its first two digits are the seller's state (and
// SELLER_STATE_CODE, when given too, must say the same). An ARN and its end date come together.
function assertTaxRegime(c: Config) {
  const problems: string[] = [];
  if (c.TAX_REGIME === 'gst') {
    if (!c.SELLER_GSTIN) problems.push('  SELLER_GSTIN: required when TAX_REGIME=gst');
    else {
      const fromGstin = c.SELLER_GSTIN.slice(0, 2);
      if (c.SELLER_STATE_CODE && c.SELLER_STATE_CODE !== fromGstin)
        problems.push(`  SELLER_STATE_CODE: ${c.SELLER_STATE_CODE} disagrees with SELLER_GSTIN (state ${fromGstin}); leave it unset`);
      c.SELLER_STATE_CODE = fromGstin;
    }
  }
  if (Boolean(c.GST_LUT_ARN) !== Boolean(c.GST_LUT_VALID_UNTIL))
    problems.push('  GST_LUT_ARN, GST_LUT_VALID_UNTIL: set both (the LUT acknowledgement and its last valid day) or neither');
  if (problems.length) throw new ConfigError(`Invalid environment:\n${problems.join('\n')}`);
}

// The VAPID keys are a pair: one without the other is a typo.
function assertVapid(c: Config) {
  if (Boolean(c.VAPID_PUBLIC_KEY) !== Boolean(c.VAPID_PRIVATE_KEY))
    throw new ConfigError('Invalid environment:\n  VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY: set both (a key pair) or neither');
}

// Production never silently fakes money or mail.
function assertSafeForProduction(c: Config) {
  if (!c.isProduction) return;
  const hasRazorpay = Boolean(c.RAZORPAY_KEY_ID && c.RAZORPAY_KEY_SECRET);
  if (!hasRazorpay && !c.ALLOW_TEST_PAYMENTS) {
    throw new ConfigError(
      'Invalid environment:\n  RAZORPAY_KEY_ID: required in production (or set ALLOW_TEST_PAYMENTS=1 to run the test checkout)',
    );
  }
  if (!c.SMTP_URL && !c.ALLOW_DEV_MAILBOX) {
    throw new ConfigError('Invalid environment:\n  SMTP_URL: required in production (or set ALLOW_DEV_MAILBOX=1)');
  }
}

/** The whitelisted subset the browser may see (docs/architecture.md "Layers"): no secret ever appears here. */
export function publicSiteConfig(c: Config): PublicSiteConfig {
  return {
    brand: c.BRAND_NAME,
    address: c.BRAND_ADDRESS,
    phone: c.BRAND_PHONE,
    email: c.BRAND_EMAIL,
    founder: c.FOUNDER_NAME,
    social: {
      whatsapp: c.SOCIAL_WHATSAPP,
      facebook: c.SOCIAL_FACEBOOK,
      linkedin: c.SOCIAL_LINKEDIN,
      youtube: c.SOCIAL_YOUTUBE,
      twitter: c.SOCIAL_TWITTER,
      instagram: c.SOCIAL_INSTAGRAM,
    },
    signIn: {
      google: Boolean(c.GOOGLE_CLIENT_ID),
      microsoft: Boolean(c.MICROSOFT_CLIENT_ID),
    },
    payments: c.RAZORPAY_KEY_ID ? 'razorpay' : 'test',
    referralValidUntil: c.REFERRAL_VALID_UNTIL ? new Date(c.REFERRAL_VALID_UNTIL).toISOString() : null,
    // The same default as the assistant (features/assistant/assistant.ts) when only the URL is set.
    assistantModel: c.LLM_BASE_URL ? (c.LLM_MODEL ?? 'gpt-4o-mini') : null,
    invoiceRetentionYears: String(c.INVOICE_RETENTION_YEARS),
    // The plan's price for /pricing, the FAQ and the terms (docs/decisions/267-maintenance-price-everywhere.md).
    maintenancePrice: maintenancePriceText(
      c.MAINTENANCE_MONTHLY_PRICE,
      c.CURRENCY_TABLE ? parseCurrencyTable(c.CURRENCY_TABLE) : CURRENCIES,
      c.TAX_REGIME === 'gst',
      c.PRICES_INCLUDE_TAX,
    ),
    taxNote: c.TAX_REGIME === 'gst' ? `${c.PRICES_INCLUDE_TAX ? 'incl.' : '+'} ${c.GST_RATE} % GST for buyers in India` : '',
    defaultPhoneCountry: findCountryByCode(c.DEFAULT_PHONE_COUNTRY) ?? INDIA,
  };
}
