import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../deps.ts';
import { perSession } from '../../lib/per-session-limit.ts';
import { workspaceOrder, type ThreadViewer } from '../../lib/workspace-order.ts';
import { recordAudit } from '../../lib/audit-log.ts';
import { authOf, requireUser } from '../../plugins/auth.ts';
import { route } from '../../lib/route.ts';
import { API_BASE } from '../../../contract/common.ts';
import {
  deleteAdminOrdersSites,
  getAdminOrdersCareReports,
  getAdminOrdersCareReportsByMonth,
  getAdminOrdersCareReportsPdf,
  getAdminOrdersSiteHealth,
  getAdminSites,
  getOrdersCareReports,
  getOrdersCareReportsByMonth,
  getOrdersCareReportsPdf,
  getOrdersSiteHealth,
  postAdminCareReportsRun,
  postAdminOrdersSites,
  putAdminOrdersSiteCare,
  putOrdersSiteHealthMails,
} from '../../../contract/site-care.ts';
import { addSite, removeSite, setCustomerMails, setKeepWatching, settingsOf } from './sites.ts';
import { adminSites, readHealth } from './health.ts';
import { listReports, reportOf, summaryOf, writeReports } from './care-reports.ts';
import { monthOf } from '../../../domain/site-care.ts';
import { renderCareReportPdf } from './care-report-pdf.ts';

// Site care's routes (docs/decisions/325–329). The customer's sit at /api/v1 and answer for their own
// order only (any other id is the same 404); the agency's are under /api/v1/admin behind the guard
// (permissions.ts), and every write there is audited.

const customerOf = (request: FastifyRequest): ThreadViewer => ({ side: 'customer', userId: authOf(request).user.id });
const agencyOf = (request: FastifyRequest): ThreadViewer => ({ side: 'agency', userId: authOf(request).user.id });

const customerPdf = (orderId: string) => (month: string, partial: boolean) =>
  `${API_BASE}/orders/${orderId}/care-reports/${month}/pdf${partial ? '?partial=1' : ''}`;
const agencyPdf = (orderId: string) => (month: string, partial: boolean) =>
  `${API_BASE}/admin/orders/${orderId}/care-reports/${month}/pdf${partial ? '?partial=1' : ''}`;

async function health(deps: AppDeps, orderId: string) {
  return { success: true as const, sites: await readHealth(deps, orderId, new Date()), settings: await settingsOf(deps.db, orderId) };
}

async function sendPdf(deps: AppDeps, reply: FastifyReply, orderId: string, publicId: string, month: string, partial: boolean) {
  const report = await reportOf(deps.db, orderId, month, partial);
  const pdf = await renderCareReportPdf(report.data, deps.config.BRAND_NAME, report.createdAt);
  return reply
    .type('application/pdf')
    .header('content-disposition', `attachment; filename="care-report-${publicId}-${month}${partial ? '-so-far' : ''}.pdf"`)
    .header('cache-control', 'private, no-store')
    .send(pdf);
}

/** The customer's routes (mounted at /api/v1). */
export const siteCareRoutes: FastifyPluginAsyncZod<{ deps: AppDeps }> = async (app, { deps }) => {
  const tags = ['site-care'];
  const onRequest = requireUser(deps.db);
  const orderOf = (request: FastifyRequest) =>
    workspaceOrder(deps.db, (request.params as { orderId: string }).orderId, customerOf(request));

  route(
    app,
    getOrdersSiteHealth,
    {
      schema: {
        tags,
        summary: "The health of your order's watched sites: up or down, uptime, response time, certificate, domain, incidents",
      },
      onRequest,
    },
    async (request) => {
      const order = await orderOf(request);
      return health(deps, order.orderId);
    },
  );

  route(
    app,
    putOrdersSiteHealthMails,
    {
      schema: { tags, summary: 'Switches your e-mails about the site going down and coming back on or off' },
      onRequest,
      config: perSession(30),
    },
    async (request) => {
      const order = await orderOf(request);
      return { success: true as const, settings: await setCustomerMails(deps, order, request.body.customerMails) };
    },
  );

  route(
    app,
    getOrdersCareReports,
    { schema: { tags, summary: "Your order's monthly care reports, newest first" }, onRequest },
    async (request) => {
      const order = await orderOf(request);
      return {
        success: true as const,
        reports: await listReports(deps.db, order.orderId, customerPdf(order.orderPublicId)),
        currentMonth: monthOf(new Date(), deps.config.INVOICE_TIME_ZONE),
      };
    },
  );

  route(
    app,
    getOrdersCareReportsByMonth,
    { schema: { tags, summary: 'One care report of your order (?partial=1: the report "so far" of a month not over)' }, onRequest },
    async (request) => {
      const order = await orderOf(request);
      const partial = request.query.partial === '1';
      const r = await reportOf(deps.db, order.orderId, request.params.month, partial);
      return { success: true as const, report: { ...summaryOf(r, customerPdf(order.orderPublicId)(r.month, r.partial)), data: r.data } };
    },
  );

  route(
    app,
    getOrdersCareReportsPdf,
    { schema: { tags, summary: 'One care report of your order as PDF' }, onRequest, config: perSession(60) },
    async (request, reply) => {
      const order = await orderOf(request);
      return sendPdf(deps, reply, order.orderId, order.orderPublicId, request.params.month, request.query.partial === '1');
    },
  );
};

/** The agency's routes (mounted under /api/v1/admin). */
export const adminSiteCareRoutes: FastifyPluginAsyncZod<{ deps: AppDeps }> = async (app, { deps }) => {
  const tags = ['admin'];
  const security = [{ bearer: [] }];
  const orderOf = (request: FastifyRequest) => workspaceOrder(deps.db, (request.params as { orderId: string }).orderId, agencyOf(request));

  route(
    app,
    getAdminOrdersSiteHealth,
    { schema: { tags, security, summary: "The health of an order's watched sites" } },
    async (request) => {
      const order = await orderOf(request);
      return health(deps, order.orderId);
    },
  );

  route(
    app,
    postAdminOrdersSites,
    {
      schema: {
        tags,
        security,
        summary:
          'Watches one more URL of the order, with an optional text the page must contain (at most 5 with the delivery link; audited)',
      },
      config: perSession(30),
    },
    async (request, reply) => {
      const order = await orderOf(request);
      const id = await addSite(deps, order, authOf(request).user.id, request.body, new Date());
      const site = (await readHealth(deps, order.orderId, new Date())).find((s) => s.id === id)!;
      return reply.status(201).send({ success: true as const, site });
    },
  );

  route(
    app,
    deleteAdminOrdersSites,
    { schema: { tags, security, summary: 'Stops watching a URL the agency added, with its history (audited)' }, config: perSession(30) },
    async (request, reply) => {
      const order = await orderOf(request);
      await removeSite(deps, order, authOf(request).user.id, request.params.siteId);
      return reply.status(204).send(null);
    },
  );

  route(
    app,
    putAdminOrdersSiteCare,
    {
      schema: { tags, security, summary: 'The owner keeps watching an order that neither support nor the plan covers (audited)' },
      config: perSession(30),
    },
    async (request) => {
      const order = await orderOf(request);
      return {
        success: true as const,
        settings: await setKeepWatching(deps, order, authOf(request).user.id, request.body.keepWatching, new Date()),
      };
    },
  );

  route(
    app,
    getAdminSites,
    { schema: { tags, security, summary: 'Every watched site: down first, then certificate and domain warnings, then the rest' } },
    async () => ({
      success: true as const,
      sites: await adminSites(deps, new Date()),
    }),
  );

  route(
    app,
    getAdminOrdersCareReports,
    { schema: { tags, security, summary: "An order's care reports, newest first" } },
    async (request) => {
      const order = await orderOf(request);
      return {
        success: true as const,
        reports: await listReports(deps.db, order.orderId, agencyPdf(order.orderPublicId)),
        currentMonth: monthOf(new Date(), deps.config.INVOICE_TIME_ZONE),
      };
    },
  );

  route(app, getAdminOrdersCareReportsByMonth, { schema: { tags, security, summary: 'One care report of an order' } }, async (request) => {
    const order = await orderOf(request);
    const r = await reportOf(deps.db, order.orderId, request.params.month, request.query.partial === '1');
    return { success: true as const, report: { ...summaryOf(r, agencyPdf(order.orderPublicId)(r.month, r.partial)), data: r.data } };
  });

  route(
    app,
    getAdminOrdersCareReportsPdf,
    { schema: { tags, security, summary: 'One care report of an order as PDF' }, config: perSession(60) },
    async (request, reply) => {
      const order = await orderOf(request);
      return sendPdf(deps, reply, order.orderId, order.orderPublicId, request.params.month, request.query.partial === '1');
    },
  );

  route(
    app,
    postAdminCareReportsRun,
    {
      schema: {
        tags,
        security,
        summary:
          'Writes the care reports of a month for every watched order (the current month: reports "so far", not mailed); existing reports are kept (audited)',
      },
      config: perSession(10),
    },
    async (request) => {
      const outcome = await writeReports(deps, request.body.month, new Date());
      await recordAudit(deps.db, {
        actorUserId: authOf(request).user.id,
        action: 'care_reports.run',
        entity: 'setting',
        entityId: request.body.month,
        before: null,
        after: outcome,
      });
      return { success: true as const, ...outcome };
    },
  );
};
