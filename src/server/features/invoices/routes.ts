import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponses } from '../../../contract/common.ts';
import { pdfResponse, billingDetailsBody, billingDetailsResponse, invoiceIdParams, orderIdParams, orderInvoicesResponse } from '../../../contract/invoices.ts';
import type { AppDeps } from '../../deps.ts';
import { authOf, requireUser } from '../../plugins/auth.ts';
import { perSession } from '../../lib/per-session-limit.ts';
import { getBillingDetails, invoicePdf, listOrderInvoices, saveBillingDetails } from './invoice-queries.ts';

/** The customer's side of tax invoices: billing details, the list and the PDFs. */
export const invoiceRoutes: FastifyPluginAsyncZod<{ deps: AppDeps }> = async (app, { deps }) => {
  const onRequest = requireUser(deps.db);

  app.get(
    '/invoices/billing-details',
    {
      schema: {
        tags: ['invoices'],
        summary: 'Your optional billing name, address and tax id',
        response: { 200: billingDetailsResponse, ...errorResponses },
      },
      onRequest,
    },
    async (request) => ({
      success: true as const,
      billing: await getBillingDetails(deps, authOf(request).user.id),
    }),
  );

  app.put(
    '/invoices/billing-details',
    {
      schema: {
        tags: ['invoices'],
        summary: 'Saves the billing details printed on your next invoices',
        body: billingDetailsBody,
        response: { 200: billingDetailsResponse, ...errorResponses },
      },
      onRequest,
      config: perSession(20),
    },
    async (request) => ({
      success: true as const,
      billing: await saveBillingDetails(deps, authOf(request).user.id, request.body),
    }),
  );

  app.get(
    '/invoices/order/:id',
    {
      schema: {
        tags: ['invoices'],
        summary: 'Invoices of one of your orders',
        params: orderIdParams,
        response: { 200: orderInvoicesResponse, ...errorResponses },
      },
      onRequest,
    },
    async (request) => ({
      success: true as const,
      invoices: await listOrderInvoices(deps, request.params.id, authOf(request).user.id),
    }),
  );

  app.get(
    '/invoices/:id/pdf',
    {
      schema: {
        tags: ['invoices'],
        summary: 'One of your invoices as PDF',
        params: invoiceIdParams,
        response: { 200: pdfResponse, ...errorResponses },
      },
      onRequest,
      config: perSession(60),
    },
    async (request, reply) => {
      const { pdf, filename } = await invoicePdf(deps, request.params.id, authOf(request).user.id);
      return reply
        .type('application/pdf')
        .header('content-disposition', `attachment; filename="${filename}"`)
        .header('cache-control', 'private, no-store')
        .send(pdf);
    },
  );
};

/** Back office (mounted under /admin, whose guard admits admins only). */
export const adminInvoiceRoutes: FastifyPluginAsyncZod<{
  deps: AppDeps;
}> = async (app, { deps }) => {
  app.get(
    '/orders/:id/invoices',
    {
      schema: {
        tags: ['admin'],
        summary: 'Invoices of an order',
        params: orderIdParams,
        response: { 200: orderInvoicesResponse, ...errorResponses },
      },
    },
    async (request) => ({
      success: true as const,
      invoices: await listOrderInvoices(deps, request.params.id),
    }),
  );
  app.get(
    '/invoices/:id/pdf',
    {
      schema: {
        tags: ['admin'],
        summary: 'An invoice as PDF',
        params: invoiceIdParams,
        response: { 200: pdfResponse, ...errorResponses },
      },
    },
    async (request, reply) => {
      const { pdf, filename } = await invoicePdf(deps, request.params.id);
      return reply
        .type('application/pdf')
        .header('content-disposition', `attachment; filename="${filename}"`)
        .header('cache-control', 'private, no-store')
        .send(pdf);
    },
  );
};
