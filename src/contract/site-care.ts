import { z } from 'zod';
import { defineOperation } from './operation.ts';
import { errorResponse, errorResponses } from './common.ts';

// Site care (docs/decisions/325–329): the delivered site watched for uptime, certificate and
// domain, its incidents, and the monthly care report.
// Customer (their own delivered order; anything else 404):
//   GET  /api/v1/orders/{orderId}/site-health
//   PUT  /api/v1/orders/{orderId}/site-health/mails          { customerMails }  (the dashboard's switch)
//   GET  /api/v1/orders/{orderId}/care-reports
//   GET  /api/v1/orders/{orderId}/care-reports/{month}        (one report, ?partial=1 for "so far")
//   GET  /api/v1/orders/{orderId}/care-reports/{month}/pdf
// Agency (admin guard; writes audited):
//   GET  /api/v1/admin/orders/{orderId}/site-health
//   POST /api/v1/admin/orders/{orderId}/sites                 { url, expectText?, domainRenewedBy? } → 201 | 400 | 409
//   DELETE /api/v1/admin/orders/{orderId}/sites/{siteId}      → 204
//   PUT  /api/v1/admin/orders/{orderId}/site-care             { keepWatching } (owner)
//   GET  /api/v1/admin/sites                                  (every watched site, worst first)
//   GET  /api/v1/admin/orders/{orderId}/care-reports[/{month}[/pdf]]
//   POST /api/v1/admin/care-reports/run                       { month } (owner) → { written, skipped }

/** At most this many watched URLs per order, the delivery link included. */
export const MAX_SITES_PER_ORDER = 5;
export const SITE_LIMITS = { url: 2000, expectText: 200 } as const;
/** Certificate warnings, in days left; each sent once per certificate. */
export const CERT_WARNING_DAYS = [21, 14, 7, 1] as const;
/** Domain warnings, in days left; each sent once per expiry date. */
export const DOMAIN_WARNING_DAYS = [30, 14, 7] as const;

export const SITE_STATES = ['up', 'down', 'unknown'] as const;
export type SiteState = (typeof SITE_STATES)[number];
/**
 * Why a check failed: a status ≥ 500 (or none), no answer in time, the expected text missing, a bad certificate,
 * no connection, an address that is not public.
 */
export const INCIDENT_CAUSES = ['status', 'timeout', 'text', 'certificate', 'connection', 'address'] as const;
export type IncidentCause = (typeof INCIDENT_CAUSES)[number];

const month = z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'A month as YYYY-MM.');

export const siteOrderParams = z.object({ orderId: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'Not an order id.') });
export const siteParams = siteOrderParams.extend({ siteId: z.uuid('Not a site id.') });
export const careReportParams = siteOrderParams.extend({ month });
export const careReportQuery = z.object({ partial: z.enum(['0', '1']).optional() });

export const siteIncident = z.object({
  startedAt: z.string(),
  /** null while the incident is open. */
  endedAt: z.string().nullable(),
  cause: z.enum(INCIDENT_CAUSES),
});
export type SiteIncident = z.infer<typeof siteIncident>;

export const siteHealth = z.object({
  id: z.string(),
  url: z.string(),
  status: z.enum(SITE_STATES),
  checkedAt: z.string().nullable(),
  /** Successful checks in the last 30 days, a percentage with 2 decimals; null before the first check. */
  uptime30d: z.number().nullable(),
  /** Median total time of the last 24 hours' checks. */
  responseP50Ms: z.number().int().nullable(),
  certificate: z.object({ validTo: z.string(), daysLeft: z.number().int() }).nullable(),
  domain: z.object({ expiresAt: z.string(), daysLeft: z.number().int() }).nullable(),
  /** The last incidents, newest first. */
  incidents: z.array(siteIncident),
  // Additive: what the screens show beside the contract's fields.
  isDeliveryLink: z.boolean(),
  expectText: z.string().nullable(),
  /** false once watching stopped (support and plan ended); `stoppedNote` says why. */
  watching: z.boolean(),
  stoppedNote: z.string().nullable(),
  domainRenewedBy: z.enum(['agency', 'customer']),
  /** The last 90 days (oldest first): the day (YYYY-MM-DD) and its uptime %, null for a day without checks. */
  days: z.array(z.object({ day: z.string(), uptime: z.number().nullable() })),
});
export type SiteHealth = z.infer<typeof siteHealth>;

export const siteHealthResponse = z.object({
  success: z.literal(true),
  sites: z.array(siteHealth),
  /** Additive: the customer's incident mails (switched on the dashboard) and the owner's "keep watching". */
  settings: z.object({ customerMails: z.boolean(), keepWatching: z.boolean() }),
});
export type SiteHealthResponse = z.infer<typeof siteHealthResponse>;

export const addSiteBody = z.object({
  url: z.string().trim().min(1, 'Enter the URL to watch.').max(SITE_LIMITS.url, `At most ${SITE_LIMITS.url} characters.`),
  expectText: z.string().trim().min(1).max(SITE_LIMITS.expectText, `At most ${SITE_LIMITS.expectText} characters.`).optional(),
  /** Who renews the domain (default the agency): the customer also hears of its expiry when it is theirs. */
  domainRenewedBy: z.enum(['agency', 'customer']).optional(),
});
export const siteResponse = z.object({ success: z.literal(true), site: siteHealth });

export const customerMailsBody = z.object({ customerMails: z.boolean() });
export const keepWatchingBody = z.object({ keepWatching: z.boolean() });
export const siteSettingsResponse = z.object({ success: z.literal(true), settings: siteHealthResponse.shape.settings });

export const adminSite = siteHealth.extend({ orderId: z.string(), customerName: z.string().nullable() });
export const adminSitesResponse = z.object({ success: z.literal(true), sites: z.array(adminSite) });
export type AdminSite = z.infer<typeof adminSite>;

export const careReportSummary = z.object({
  month,
  createdAt: z.string(),
  /** The month's uptime % over every watched URL (2 decimals); null without checks. */
  uptime: z.number().nullable(),
  /** How many incidents started in the month. */
  incidents: z.number().int(),
  pdfUrl: z.string(),
  /** Additive: a report "so far" of a month not over when it was written. */
  partial: z.boolean(),
});
export const careReportsResponse = z.object({
  success: z.literal(true),
  reports: z.array(careReportSummary),
  /** Additive: this month in INVOICE_TIME_ZONE (YYYY-MM), the month a run "so far" writes. */
  currentMonth: month,
});
export type CareReportSummary = z.infer<typeof careReportSummary>;

/** What one report says, frozen when it is written (the page and the PDF draw the same). */
export const careReportData = z.object({
  orderId: z.string(),
  month,
  partial: z.boolean(),
  from: z.string(),
  until: z.string(),
  timeZone: z.string(),
  sites: z.array(
    z.object({
      url: z.string(),
      uptime: z.number().nullable(),
      checks: z.number().int(),
      failures: z.number().int(),
      p50Ms: z.number().int().nullable(),
      p95Ms: z.number().int().nullable(),
      certificateDaysLeft: z.number().int().nullable(),
      domainDaysLeft: z.number().int().nullable(),
      incidents: z.array(siteIncident.extend({ minutes: z.number().int() })),
    }),
  ),
  support: z.object({
    opened: z.number().int(),
    resolved: z.number().int(),
    requests: z.array(
      z.object({
        title: z.string(),
        openedAt: z.string(),
        resolvedAt: z.string().nullable(),
        firstResponseMinutes: z.number().int().nullable(),
      }),
    ),
  }),
  changes: z.array(z.object({ title: z.string(), at: z.string() })),
  /** The plan's documents of the month (tax invoices of its charges), as issued. */
  charges: z.array(z.object({ number: z.string(), issuedAt: z.string(), amount: z.number().int(), currency: z.string() })),
});
export type CareReportData = z.infer<typeof careReportData>;
export const careReportResponse = z.object({ success: z.literal(true), report: careReportSummary.extend({ data: careReportData }) });

export const runCareReportsBody = z.object({ month });
export const runCareReportsResponse = z.object({ success: z.literal(true), written: z.number().int(), skipped: z.number().int() });

/** A PDF file (application/pdf), described for the OpenAPI document. */
const pdf = z.unknown().describe('application/pdf');
const noContent = z.null().describe('No content');

/** The health of your order's watched sites */
export const getOrdersSiteHealth = defineOperation({
  method: 'GET',
  path: '/api/v1/orders/:orderId/site-health',
  params: siteOrderParams,
  responses: { 200: siteHealthResponse },
});

/** Switches your mails about the site being down or up again */
export const putOrdersSiteHealthMails = defineOperation({
  method: 'PUT',
  path: '/api/v1/orders/:orderId/site-health/mails',
  params: siteOrderParams,
  body: customerMailsBody,
  responses: { 200: siteSettingsResponse },
});

/** The monthly care reports of your order, newest first */
export const getOrdersCareReports = defineOperation({
  method: 'GET',
  path: '/api/v1/orders/:orderId/care-reports',
  params: siteOrderParams,
  responses: { 200: careReportsResponse },
});

/** One care report of your order */
export const getOrdersCareReportsByMonth = defineOperation({
  method: 'GET',
  path: '/api/v1/orders/:orderId/care-reports/:month',
  params: careReportParams,
  query: careReportQuery,
  responses: { 200: careReportResponse },
});

/** One care report of your order as PDF */
export const getOrdersCareReportsPdf = defineOperation({
  method: 'GET',
  path: '/api/v1/orders/:orderId/care-reports/:month/pdf',
  params: careReportParams,
  query: careReportQuery,
  binary: true,
  responses: { 200: pdf },
});

/** The health of an order's watched sites */
export const getAdminOrdersSiteHealth = defineOperation({
  method: 'GET',
  path: '/api/v1/admin/orders/:orderId/site-health',
  params: siteOrderParams,
  responses: { 200: siteHealthResponse },
});

/** Watches one more URL of the order (at most 5 with the delivery link); 400 for a URL that is not public http(s), 409 above 5 */
export const postAdminOrdersSites = defineOperation({
  method: 'POST',
  path: '/api/v1/admin/orders/:orderId/sites',
  params: siteOrderParams,
  body: addSiteBody,
  responses: { 201: siteResponse },
  errors: { ...errorResponses, 409: errorResponse },
});

/** Stops watching one URL of the order (the delivery link follows the order and cannot be removed) */
export const deleteAdminOrdersSites = defineOperation({
  method: 'DELETE',
  path: '/api/v1/admin/orders/:orderId/sites/:siteId',
  params: siteParams,
  responses: { 204: noContent },
});

/** The owner keeps watching an order that neither support nor the plan covers */
export const putAdminOrdersSiteCare = defineOperation({
  method: 'PUT',
  path: '/api/v1/admin/orders/:orderId/site-care',
  params: siteOrderParams,
  body: keepWatchingBody,
  responses: { 200: siteSettingsResponse },
});

/** Every watched site: down first, then certificate and domain warnings, then the rest */
export const getAdminSites = defineOperation({ method: 'GET', path: '/api/v1/admin/sites', responses: { 200: adminSitesResponse } });

/** The care reports of an order, newest first */
export const getAdminOrdersCareReports = defineOperation({
  method: 'GET',
  path: '/api/v1/admin/orders/:orderId/care-reports',
  params: siteOrderParams,
  responses: { 200: careReportsResponse },
});

/** One care report of an order */
export const getAdminOrdersCareReportsByMonth = defineOperation({
  method: 'GET',
  path: '/api/v1/admin/orders/:orderId/care-reports/:month',
  params: careReportParams,
  query: careReportQuery,
  responses: { 200: careReportResponse },
});

/** One care report of an order as PDF */
export const getAdminOrdersCareReportsPdf = defineOperation({
  method: 'GET',
  path: '/api/v1/admin/orders/:orderId/care-reports/:month/pdf',
  params: careReportParams,
  query: careReportQuery,
  binary: true,
  responses: { 200: pdf },
});

/** Writes the care reports of a month for every watched order (the current month: reports "so far"); what exists is kept */
export const postAdminCareReportsRun = defineOperation({
  method: 'POST',
  path: '/api/v1/admin/care-reports/run',
  body: runCareReportsBody,
  responses: { 200: runCareReportsResponse },
});
