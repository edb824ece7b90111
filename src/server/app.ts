import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { type Config, publicSiteConfig } from './config.ts';
import type { AppDeps } from './deps.ts';
import { openDatabase, type Database } from './db/client.ts';
import { migrate } from './db/migrate.ts';
import { frameworkErrors, registerErrorHandling } from './plugins/errors.ts';
import { validatorWithTextPolicy } from './plugins/validation.ts';
import { accessLogRequest } from './plugins/access-log.ts';
import { registerSecurity } from './plugins/security.ts';
import { registerRateLimit } from './plugins/rate-limit.ts';
import { registerDocs } from './plugins/docs.ts';
import { registerWeb } from './plugins/web.ts';
import { registerAuthDecorations } from './plugins/auth.ts';
import { registerIdempotency } from './plugins/idempotency.ts';
import { createInvalidationBus } from './lib/invalidation-bus.ts';
import { createDomainEvents } from './lib/domain-events.ts';
import { createSessionCache } from './features/auth/session-cache.ts';
import { createMailer } from './features/mail/mailer.ts';
import { createDevMailbox, createSmtpTransport } from './integrations/mail/transport.ts';
import { healthRoutes } from './features/health/routes.ts';
import { leadRoutes } from './features/leads/routes.ts';
import { contactRoutes } from './features/contact/routes.ts';
import { promotionRoutes } from './features/promotion/routes.ts';
import { geoRoutes } from './features/geo/routes.ts';
import { registerSocketServer } from './plugins/socket.ts';
import { createRevocations } from './features/auth/revocations.ts';
import { registerChatSocket } from './features/chat/socket-handlers.ts';
import { chatRootRoute, chatRoutes } from './features/chat/routes.ts';
import { assistantRoutes, assistantUrl } from './features/assistant/routes.ts';
import { authRoutes } from './features/auth/routes.ts';
import { oidcRoutes } from './features/auth/social/oidc-routes.ts';
import { userRoutes } from './features/users/routes.ts';
import { passkeyRoutes } from './features/passkeys/routes.ts';
import { accountRoutes } from './features/users/account-routes.ts';
import { sessionRoutes } from './features/auth/session-routes.ts';
import { accountExportRoutes } from './features/account-export/routes.ts';
import { paymentRoutes } from './features/payments/routes.ts';
import { couponRoutes } from './features/coupons/routes.ts';
import { referralRoutes } from './features/referrals/routes.ts';
import { orderRoutes } from './features/orders/routes.ts';
import { registerCancelledOrderGuard } from './plugins/cancelled-order-guard.ts';
import { trackerRoutes } from './features/tracker/routes.ts';
import { adminRoutes } from './features/admin/routes.ts';
import { invoiceRoutes } from './features/invoices/routes.ts';
import { statementRoutes } from './features/ledger/routes.ts';
import { subscribeLedger } from './features/ledger/subscriptions.ts';
import { backfillLedger } from './features/ledger/backfill.ts';
import { createMetrics } from './features/metrics/metrics.ts';
import { registerMetrics } from './features/metrics/routes.ts';
import { startJobTimer } from './features/jobs/run-jobs.ts';
import { createJobQueue } from './features/jobs/job-queue.ts';
import { invoiceAttachment } from './features/invoices/invoice-queries.ts';
import { subscribeTracker } from './features/tracker/subscriptions.ts';
import { registerPageViewCounter } from './features/funnel/count-page-views.ts';
import { openFileStorage } from './integrations/storage/open-storage.ts';
import { orderFileRoutes } from './features/order-files/routes.ts';
import { briefRoutes } from './features/brief/routes.ts';
import { termsRoutes } from './features/terms/routes.ts';
import { reviewRoutes } from './features/reviews/routes.ts';
import { maintenanceRoutes } from './features/maintenance/routes.ts';
import { subscribeReviews, broadcastReviews } from './features/reviews/subscriptions.ts';
import { siteLinkRoutes, siteReviewRoutes } from './features/site-review/routes.ts';
import { registerReviewScript } from './features/site-review/script-route.ts';
import { subscribeSiteReview } from './features/site-review/subscriptions.ts';
import { subscribeDeliveryDate } from './features/delivery-date/subscriptions.ts';
import { subscribeOrderMail } from './features/order-mail/subscriptions.ts';
import { subscribeInvoices } from './features/invoices/subscriptions.ts';
import { subscribeReminders } from './features/reminders/subscriptions.ts';
import { subscribeRefunds } from './features/payments/subscriptions.ts';
import { subscribeNotices } from './features/notices/subscriptions.ts';
import { subscribeOrderFiles } from './features/order-files/subscriptions.ts';
import { orderMessageRoutes } from './features/order-messages/routes.ts';
import { registerOrderMessageSocket } from './features/order-messages/socket-handlers.ts';
import { supportRoutes } from './features/support/routes.ts';
import { broadcastSupport, subscribeSupport } from './features/support/subscriptions.ts';
import { actionRoutes } from './features/actions/routes.ts';
import { ratingRoutes } from './features/ratings/routes.ts';
import { announceErasedChats, subscribeChat } from './features/chat/subscriptions.ts';
import { subscribeLeads } from './features/leads/subscriptions.ts';
import { subscribeContact } from './features/contact/subscriptions.ts';
import { broadcastOrderMessages, subscribeOrderMessages } from './features/order-messages/subscriptions.ts';
import { subscribeBrief } from './features/brief/subscriptions.ts';
import { subscribeReferrals } from './features/referrals/subscriptions.ts';
import { subscribeAbandonedCheckouts } from './features/abandoned-checkouts/subscriptions.ts';
import { subscribeFunnel } from './features/funnel/subscriptions.ts';
import { subscribeChanges } from './features/changes/subscriptions.ts';
import { subscribeMaintenance } from './features/maintenance/subscriptions.ts';
import { subscribePayouts } from './features/payouts/subscriptions.ts';
import { changeRoutes } from './features/changes/routes.ts';
import { siteCareRoutes } from './features/site-care/routes.ts';
import { subscribeSiteCare } from './features/site-care/subscriptions.ts';
import { startSiteChecks } from './features/site-care/checks.ts';
import { careReportAttachment } from './features/site-care/care-report-attachment.ts';
import type { Resolve } from './features/site-care/address-policy.ts';
import { versionedAnswers } from './lib/versioned-answers.ts';
import { subscribeWhatsApp } from './features/whatsapp/subscriptions.ts';
import { whatsappRoutes } from './features/whatsapp/routes.ts';
import type { Agent as HttpsAgent } from 'node:https';
import { createPushSender } from './integrations/push/web-push.ts';
import { resolveVapidKeys } from './features/push/vapid.ts';
import { subscribePush } from './features/push/subscriptions.ts';
import { pushRoutes } from './features/push/routes.ts';
import { notificationPreferenceRoutes } from './features/notification-preferences/routes.ts';

export interface BuiltApp {
  app: FastifyInstance;
  deps: AppDeps;
}

export interface BuildOptions {
  /** The resolver site checks use (tests map their host names to local servers); default the system's. */
  siteCareResolve?: Resolve;
  /** Use an already opened database (tests share one per file). */
  database?: Database;
  /** Disable the mail worker's timer (tests call mailer.drain()). */
  pollMail?: boolean;
  /** false: queue mail, never send it from this process (tests/api/runtime/crash-child.ts). */
  sendMail?: boolean;
  /**
   * Test-only fault hook: runs right after every commit of an events transaction, before anything
   * else learns of it (tests/api/runtime/crash-after-commit.test.ts kills the process here).
   */
  afterCommitFault?: () => void;
  /** How pushes reach the push service (tests trust their local push service's certificate through it). */
  pushAgent?: HttpsAgent;
}

const API = '/api/v1';

type TrustProxy = boolean | string | ((address: string, hop: number) => boolean);

// Fastify ignores a bare hop count, so "TRUST_PROXY=1" becomes a function trusting that many hops.
function trustProxy(value: string | undefined): TrustProxy {
  if (!value) return false;
  if (value === 'true') return true;
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    return (_address, hop) => hop < hops;
  }
  return value;
}

/** The logger of the app (exported so a test can read what it writes). */
export function loggerOptions(config: Pick<Config, 'LOG_LEVEL'>) {
  return {
    level: config.LOG_LEVEL,
    // Tokens, codes and secrets never reach the log.
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers.cookie',
        '*.token',
        '*.otp',
        '*.password',
        '*.signupTicket',
        '*.razorpay_signature',
      ],
      censor: '[redacted]',
    },
    // Path and query parameter names only: query values (OIDC code/state, tokens) never logged.
    serializers: { req: accessLogRequest },
  };
}

/** Builds the whole application without listening: tests call this, main.ts listens. */
export async function buildApp(config: Config, options: BuildOptions = {}): Promise<BuiltApp> {
  const app = Fastify({
    logger: loggerOptions(config),
    bodyLimit: 100 * 1024,
    // A path Fastify cannot decode answers in the API's error shape (decision 090).
    frameworkErrors,
    trustProxy: trustProxy(config.TRUST_PROXY),
    // While shutting down, a request already on an open connection is answered (with
    // `Connection: close`), not refused with 503: the listener is closed, so nothing new arrives
    // and the proxy sends the next request to another instance (decision 061).
    return503OnClosing: false,
    // One operation, two spellings (the spec's trailing slash): features/assistant/routes.ts.
    rewriteUrl: (req) => assistantUrl(req.url ?? '/'),
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorWithTextPolicy);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandling(app);
  registerAuthDecorations(app);

  const database = options.database ?? (await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.dataDir }));
  await migrate(database);
  const transport = config.SMTP_URL ? createSmtpTransport(config.SMTP_URL) : createDevMailbox(app.log);
  const mailer = createMailer({
    database,
    transport,
    from: config.MAIL_FROM ?? `${config.BRAND_NAME} <${config.BRAND_EMAIL}>`,
    log: app.log,
    poll: options.pollMail,
    send: options.sendMail,
    // Documents are rendered when the mail leaves, not in the request that queued it.
    renderAttachment: (ref) => (ref.kind === 'care-report' ? careReportAttachment(deps, ref.id) : invoiceAttachment(deps, ref.id)),
  });
  const metricsOn = config.METRICS_ALLOW.length > 0 || Boolean(config.METRICS_TOKEN);
  const metrics = metricsOn ? createMetrics(database, app.log) : undefined;
  const bus = await createInvalidationBus({
    redisUrl: config.REDIS_URL,
    postgresUrl: config.DATABASE_URL,
    pool: database.pool,
    log: app.log,
  });
  // Jobs run by themselves where the job timer runs (not in tests: they run the pass with their clock).
  const jobs = createJobQueue({ database, log: app.log, autoRun: config.JOBS_POLL_SECONDS > 0 && config.NODE_ENV !== 'test' });
  const events = createDomainEvents(database.db, app.log, () => {
    options.afterCommitFault?.();
    mailer.wakeIfQueued();
    jobs.wake();
  });
  const fileStorage = await openFileStorage(config);
  const deps: AppDeps = {
    config,
    database,
    db: database.db,
    mailer,
    log: app.log,
    metrics,
    revocations: createRevocations(),
    bus,
    events,
    jobs,
    queries: { fileInUse: [], fileApproved: [] },
    answers: versionedAnswers(config.READ_CACHE_MB * 1024 * 1024),
    fileStorage,
    siteCareResolve: options.siteCareResolve,
  };
  // Who reacts to the order's events (decision 100) — the one place that knows; publishers import
  // none of them. No reaction depends on the order of these lines: where one needs another's
  // result, it follows a second event (docs/architecture.md, "Events and jobs").
  subscribeTracker(deps);
  subscribeOrderMail(deps);
  // Before the invoices: a change is accepted before its document is issued.
  subscribeChanges(deps);
  subscribeInvoices(deps);
  // Every money event becomes lines of the order's account (docs/decisions/320-order-ledger.md).
  subscribeLedger(deps);
  subscribeReminders(deps);
  subscribeRefunds(deps);
  // Messages and review events become notices for the other side (decision 155).
  subscribeNotices(deps);
  subscribeOrderFiles(deps);
  // Support requests and their messages become notices too (decision 170).
  subscribeSupport(deps);
  // A paid maintenance plan extends the support window (docs/decisions/315-support-extension-on-deps.md).
  subscribeMaintenance(deps);
  // A review approved sets the due date and completes its stage (decision 150).
  subscribeDeliveryDate(deps);
  subscribeReviews(deps);
  // A decided round's live-site tokens stop (decision 240).
  subscribeSiteReview(deps);
  // A deleted account (decision 192): each feature erases its own part (the ones above too).
  subscribeChat(deps);
  subscribeLeads(deps);
  subscribeContact(deps);
  subscribeOrderMessages(deps);
  subscribeBrief(deps);
  subscribeReferrals(deps);
  subscribeAbandonedCheckouts(deps);
  subscribeFunnel(deps);
  // The daily read of Razorpay's payouts, a stored job (docs/decisions/323-razorpay-settlements.md).
  subscribePayouts(deps);
  // A delivered order's link is watched (docs/decisions/325-site-checks-in-the-job-pass.md).
  subscribeSiteCare(deps);
  // WhatsApp notices, written in their event's transaction (docs/decisions/345-whatsapp-notices-and-consent.md).
  subscribeWhatsApp(deps);
  // The events worth a push become stored pushes (docs/decisions/343-web-push.md).
  const vapid = resolveVapidKeys(config, app.log);
  const pushSender = vapid ? createPushSender(vapid, { agent: options.pushAgent }) : null;
  subscribePush(deps, pushSender);
  createSessionCache(database.db, bus);
  if (metrics) registerMetrics(app, metrics, config);

  // A request in flight at SIGTERM keeps its connection alive after its answer (only requests that
  // arrive while closing get `Connection: close`), and Node reaps idle connections once, when the
  // server closes: the close then waited for the 72 s keep-alive timeout and the grace ran out under
  // load. Reap idle connections until the server has closed (decision 061).
  app.addHook('preClose', async () => {
    const reap = setInterval(() => app.server.closeIdleConnections(), 100);
    reap.unref();
    app.server.once('close', () => clearInterval(reap));
  });
  app.addHook('onClose', async () => {
    await bus.close();
    await jobs.stop();
    await mailer.stop();
    await fileStorage.close();
    if (!options.database) await database.close();
  });

  await registerSecurity(app, config);
  await registerRateLimit(app, config);
  await registerDocs(app, config, database.db);
  registerCancelledOrderGuard(app, database);
  // Every signed-in POST with an Idempotency-Key happens once (docs/decisions/210-idempotency-key.md).
  registerIdempotency(app, database.db);

  // The table of contents of the API: one line per feature (docs/architecture.md).
  await app.register(healthRoutes, { prefix: API, deps });
  // — public site —
  await app.register(leadRoutes, { prefix: API, deps });
  await app.register(contactRoutes, { prefix: API, deps });
  await app.register(promotionRoutes, { prefix: API, deps });
  await app.register(geoRoutes, { prefix: API, deps });
  // — accounts —
  await app.register(authRoutes, { prefix: API, deps });
  await app.register(oidcRoutes, { prefix: API, deps });
  await app.register(userRoutes, { prefix: API, deps });
  // — passkeys and the back office's step-up —
  await app.register(passkeyRoutes, { prefix: API, deps });
  // — privacy self-service: correct, change e-mail, sessions, export (decision 193) —
  await app.register(accountRoutes, { prefix: API, deps });
  await app.register(sessionRoutes, { prefix: API, deps });
  await app.register(accountExportRoutes, { prefix: API, deps });
  // — notices: choices per kind and channel, and push devices (docs/decisions/342, 343) —
  await app.register(notificationPreferenceRoutes, { prefix: API, deps });
  await app.register(pushRoutes, { prefix: API, deps, sender: pushSender });
  // — orders and money —
  await app.register(paymentRoutes, { prefix: API, deps });
  await app.register(couponRoutes, { prefix: API, deps });
  await app.register(referralRoutes, { prefix: API, deps });
  await app.register(orderRoutes, { prefix: API, deps });
  await app.register(trackerRoutes, { prefix: API, deps });
  // — agency: invoices, reminders, abandoned checkouts, funnel —
  await app.register(invoiceRoutes, { prefix: API, deps });
  await app.register(statementRoutes, { prefix: API, deps });
  await app.register(orderMessageRoutes, { prefix: API, deps });
  // — the project workspace: order files —
  await app.register(orderFileRoutes, { prefix: API, deps });
  // — the order workspace —
  await app.register(briefRoutes, { prefix: API, deps });
  await app.register(termsRoutes, { prefix: API, deps });
  await app.register(reviewRoutes, { prefix: API, deps });
  // — the live site reviewed with review.js (decisions 240, 241) —
  await app.register(siteLinkRoutes, { prefix: API, deps });
  await app.register(siteReviewRoutes, { prefix: API, deps });
  registerReviewScript(app, config.webDistDir);
  await app.register(maintenanceRoutes, { prefix: API, deps });
  // — after delivery: support —
  await app.register(supportRoutes, { prefix: API, deps });
  // — what waits for whom, and ratings (docs/decisions/213, 214) —
  await app.register(actionRoutes, { prefix: API, deps });
  await app.register(ratingRoutes, { prefix: API, deps });
  await app.register(changeRoutes, { prefix: API, deps });
  // Orders placed before the order account get theirs written from what they hold (docs/decisions/320-order-ledger.md).
  await backfillLedger(deps);
  // — site care: the delivered site watched, its incidents and care reports (decisions 325–329) —
  await app.register(siteCareRoutes, { prefix: API, deps });
  // — WhatsApp: the customer's opt-in and Meta's webhook (decision 345) —
  await app.register(whatsappRoutes, { prefix: API, deps });
  startJobTimer(app, deps);
  startSiteChecks(app, deps);
  registerPageViewCounter(app, deps);
  // — chat —
  const socketServer = registerSocketServer(app, deps);
  metrics?.countSocketsWith(() => socketServer.io.engine.clientsCount);
  registerChatSocket(socketServer.io, deps, socketServer.messageLimit);
  announceErasedChats(socketServer.io, deps);
  registerOrderMessageSocket(socketServer.io, deps);
  broadcastOrderMessages(socketServer.io, deps);
  broadcastSupport(socketServer.io, deps);
  broadcastReviews(socketServer.io, deps);
  await app.register(chatRoutes, { prefix: API, deps });
  // The spec's guest chat test page starts a chat with a JSON POST to the site's root (decision 107).
  await app.register(chatRootRoute, { deps });
  await app.register(assistantRoutes, { prefix: API, deps });
  // — back office —
  await app.register(adminRoutes, { prefix: `${API}/admin`, deps });

  await registerWeb(app, config.webDistDir, publicSiteConfig(config), config.publicUrl);
  return { app, deps };
}
