// Starts the local fakes and the built app, the way an operator would run it, for Playwright.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '../../src/server/app.ts';
import { loadConfig } from '../../src/server/config.ts';
import { startFakeSmtp } from '../fakes/smtp.ts';
import { createServer } from 'node:http';
import { sql } from 'drizzle-orm';
import { runJobs } from '../../src/server/features/jobs/run-jobs.ts';
import { chargeTestSubscription } from '../../src/server/features/maintenance/test-charges.ts';
import { resetPasskeys } from '../../src/server/features/passkeys/reset-passkeys.ts';
import { checkOrderSites } from '../../src/server/features/site-care/checks.ts';
import { ADMIN_EMAILS, APP_URL, E2E, E2E_GST_SELLER_GSTIN, E2E_SELLER, PASSKEY_APP_URL, REFERRAL_VALID_UNTIL } from './ports.ts';

const smtp = await startFakeSmtp({ smtpPort: E2E.smtp, httpPort: E2E.smtpHttp });
// — fakes of later features start here (OpenID provider, Razorpay, LLM, geo/weather) —
// public site: one local server plays the IP-geolocation and the weather provider.
const { startFakeGeo } = await import('../fakes/geo.ts');
const geo = await startFakeGeo({ port: E2E.geo });
// accounts: one local OpenID provider plays both Google and Microsoft.
const { startFakeOidc } = await import('../fakes/oidc.ts');
const oidcClient = (provider: 'google' | 'microsoft') => ({
  client_id: `e2e-${provider}`,
  client_secret: `e2e-${provider}-secret`,
  redirect_uris: [`${APP_URL}/api/v1/auth/oidc/${provider}/callback`],
});
const oidc = await startFakeOidc({ port: E2E.oidc, clients: [oidcClient('google'), oidcClient('microsoft')] });
// chat: a local OpenAI-compatible server behind the assistant.
const { startFakeLlm } = await import('../fakes/llm.ts');
const llm = await startFakeLlm({ port: E2E.llm });
// push: a local push service (Web Push protocol over HTTPS on 127.0.0.1), its control on E2E.push.
const { startFakePushService } = await import('../fakes/push-service.ts');
const pushService = await startFakePushService({ controlPort: E2E.push });

const env: Record<string, string> = {
  NODE_ENV: 'development',
  LOG_LEVEL: 'warn',
  PORT: String(E2E.app),
  HOST: '127.0.0.1',
  PUBLIC_URL: APP_URL,
  DATA_DIR: mkdtempSync(join(tmpdir(), 'e2e-data-')),
  SMTP_URL: smtp.smtpUrl,
  ADMIN_EMAILS: ADMIN_EMAILS.join(','),
  ...(process.env.WEB_DIST_DIR ? { WEB_DIST_DIR: process.env.WEB_DIST_DIR } : {}),
  // — env of later features' fakes goes here —
  // public site: the geo/weather fake, and a form limit loose enough for every spec
  GEOIP_URL: geo.geoipUrl,
  WEATHER_URL: geo.weatherUrl,
  WEATHER_API_KEY: geo.apiKey,
  PUBLIC_FORMS_MAX_PER_IP_MINUTE: '1000',
  // every spec's visitors start their chats from 127.0.0.1
  CHAT_STARTS_MAX_PER_IP_MINUTE: '1000',
  // accounts: the local OpenID provider, and code limits loose enough for every spec's sign-ins
  GOOGLE_CLIENT_ID: 'e2e-google',
  GOOGLE_CLIENT_SECRET: 'e2e-google-secret',
  GOOGLE_ISSUER: oidc.issuer,
  MICROSOFT_CLIENT_ID: 'e2e-microsoft',
  MICROSOFT_CLIENT_SECRET: 'e2e-microsoft-secret',
  MICROSOFT_ISSUER: oidc.issuer,
  OTP_RESEND_SECONDS: '2',
  OTP_MAX_PER_EMAIL_HOUR: '200',
  OTP_MAX_PER_IP_HOUR: '5000',
  AUTH_MAX_PER_IP_MINUTE: '1000',
  // chat: the assistant answers through the fake LLM
  LLM_BASE_URL: llm.baseUrl,
  LLM_API_KEY: 'e2e-llm-key',
  LLM_MODEL: 'e2e-model',
  // The referral page shows the configured end date
  REFERRAL_VALID_UNTIL,
  // The seller printed on tax invoices
  SELLER_LEGAL_NAME: E2E_SELLER.legalName,
  SELLER_TAX_ID: E2E_SELLER.taxId,
  // The specs of this instance sign the founder in by code alone (decision 190 allows
  // 'off' for tests); the step-up itself is tested on the second instance below.
  ADMIN_STEP_UP: 'off',
  // Site care (decision 325): no check or care report runs by itself — every spec delivers orders to
  // made-up addresses, which would fail and mail. tests/e2e/site-care.spec.ts checks its own order's
  // local site through POST /site-care/check on the control port; its address is loopback.
  SITE_CHECKS: 'off',
  SITE_CHECK_ALLOW_PRIVATE: '1',
  // The live chat answers around the clock here, so the chat specs do not depend on the hour they run at.
  CHAT_BUSINESS_HOURS: 'Sun-Sat 00:00-24:00 UTC',
  // Web Push to the local push service only (docs/decisions/343-web-push.md).
  PUSH_SERVICE_HOSTS: '127.0.0.1',
};
const config = loadConfig(env);
const { app, deps } = await buildApp(config, { pushAgent: pushService.agent });
await app.listen({ port: config.PORT, host: config.HOST });

// A second instance with the default ADMIN_STEP_UP=passkey, on `localhost` (a WebAuthn
// relying party must be a host name), its own database and files, the same mailbox and fakes.
const passkeyConfig = loadConfig({
  ...env,
  PORT: String(E2E.passkeyApp),
  PUBLIC_URL: PASSKEY_APP_URL,
  DATA_DIR: mkdtempSync(join(tmpdir(), 'e2e-passkey-data-')),
  ADMIN_STEP_UP: 'passkey',
  // GST on this instance only (docs/decisions/221-gst-documents.md): tests/e2e/gst.spec.ts pays here,
  // while the first instance keeps the default TAX_REGIME=none its specs' documents expect.
  TAX_REGIME: 'gst',
  SELLER_GSTIN: E2E_GST_SELLER_GSTIN,
  GST_LUT_ARN: 'AD290326000123X',
  GST_LUT_VALID_UNTIL: '2099-03-31',
});
const passkeyApp = await buildApp(passkeyConfig);
await passkeyApp.app.listen({ port: passkeyConfig.PORT, host: passkeyConfig.HOST });

// Decision 099: the test stack's own control port, on loopback, outside the app. A spec
// runs one job pass now or "at" a later time (POST /jobs/run?at=ISO) instead of waiting for the
// timer or for days. It exists only in this script; the product has no such door.
const control = createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://control');
  // Decision 175: the maintenance plan's monthly charge in the built-in test checkout,
  // POST /maintenance/charge?subscription=sub_test_…&at=ISO — as Razorpay would charge a month later.
  if (req.method === 'POST' && url.pathname === '/maintenance/charge') {
    const at = url.searchParams.get('at');
    chargeTestSubscription(deps, url.searchParams.get('subscription') ?? '', at ? new Date(at) : new Date()).then(
      async (outcome) => {
        await deps.mailer.drain();
        res.writeHead(outcome === 'not_found' ? 404 : 200, { 'content-type': 'application/json' }).end(JSON.stringify({ outcome }));
      },
      (err: unknown) => res.writeHead(500, { 'content-type': 'text/plain' }).end(String(err)),
    );
    return;
  }
  // The support window runs on real time; POST /support/age?order=<public id>&days=N moves the
  // order's delivery (stage 15 completed_at) N days into the past, as if a year had gone by.
  if (req.method === 'POST' && url.pathname === '/support/age') {
    const days = Number(url.searchParams.get('days'));
    const order = url.searchParams.get('order') ?? '';
    if (!Number.isInteger(days) || days < 1 || days > 5000 || !order) {
      res.writeHead(400).end();
      return;
    }
    deps.db
      .execute(
        sql`update order_stages set completed_at = completed_at - make_interval(days => ${days}::int)
              where stage = 15 and completed_at is not null and order_id = (select id from orders where public_id = ${order})`,
      )
      .then(
        () => res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}'),
        (err: unknown) => res.writeHead(500, { 'content-type': 'text/plain' }).end(String(err)),
      );
    return;
  }
  // POST /passkeys/reset?email=… on the step-up instance — what the operator's
  // `npm run admin:reset-passkeys -- EMAIL` does — so a retried spec starts from "no passkey".
  if (req.method === 'POST' && url.pathname === '/passkeys/reset') {
    resetPasskeys(passkeyApp.deps.db, url.searchParams.get('email') ?? '').then(
      (done) => res.writeHead(done ? 200 : 404, { 'content-type': 'application/json' }).end(JSON.stringify(done ?? {})),
      (err: unknown) => res.writeHead(500, { 'content-type': 'text/plain' }).end(String(err)),
    );
    return;
  }
  // POST /staff/list?email=… on the step-up instance: puts an address on the owner's staff list, as
  // the owner's invitation does, without the owner's own passkey ceremony first (decision 276's spec).
  if (req.method === 'POST' && url.pathname === '/staff/list') {
    const email = (url.searchParams.get('email') ?? '').toLowerCase();
    passkeyApp.deps.db.execute(sql`insert into staff_members (email) values (${email}) on conflict do nothing`).then(
      () => res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}'),
      (err: unknown) => res.writeHead(500, { 'content-type': 'text/plain' }).end(String(err)),
    );
    return;
  }
  // Site care (decision 325): POST /site-care/check?order=<public id>&at=ISO runs one check (and the
  // daily look) of each of that order's sites at that time, as the job pass would — and nobody else's.
  if (req.method === 'POST' && url.pathname === '/site-care/check') {
    const at = url.searchParams.get('at');
    checkOrderSites(deps, url.searchParams.get('order') ?? '', at ? new Date(at) : new Date()).then(
      async (checked) => {
        await deps.mailer.drain();
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ checked }));
      },
      (err: unknown) => res.writeHead(500, { 'content-type': 'text/plain' }).end(String(err)),
    );
    return;
  }
  if (req.method !== 'POST' || url.pathname !== '/jobs/run') {
    res.writeHead(404).end();
    return;
  }
  const at = url.searchParams.get('at');
  runJobs(deps, at ? new Date(at) : new Date()).then(
    async (result) => {
      await deps.mailer.drain();
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(result));
    },
    (err: unknown) => res.writeHead(500, { 'content-type': 'text/plain' }).end(String(err)),
  );
});
await new Promise<void>((resolve) => control.listen(E2E.control, '127.0.0.1', resolve));
console.log(`e2e stack ready at ${APP_URL}`);

const stop = async () => {
  control.close();
  await passkeyApp.app.close();
  await app.close();
  await smtp.close();
  await pushService.close();
  process.exit(0);
};
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());
