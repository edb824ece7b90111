import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../deps.ts';
import { authOf, requireUser } from '../../plugins/auth.ts';
import { perSession } from '../../lib/per-session-limit.ts';
import { getBillingDetails, invoicePdf, listOrderInvoices, saveBillingDetails } from './invoice-queries.ts';
import { route } from '../../lib/route.ts';
import {
  getInvoicesBillingDetails,
  putInvoicesBillingDetails,
  getInvoicesOrderById,
  getInvoicesPdf,
  getAdminOrdersInvoices,
  getAdminInvoicesPdf,
} from '../../../contract/invoices.ts';

/** The customer's side of tax invoices: billing details, the list and the PDFs. */
export const invoiceRoutes: FastifyPluginAsyncZod<{ deps: AppDeps }> = async (app, { deps }) => {
  const onRequest = requireUser(deps.db);

  route(
    app,
    getInvoicesBillingDetails,
    { schema: { tags: ['invoices'], summary: 'Your optional billing name, address and tax id' }, onRequest },
    async (request) => ({
      success: true as const,
      billing: await getBillingDetails(deps, authOf(request).user.id),
    }),
  );

  route(
    app,
    putInvoicesBillingDetails,
    {
      schema: { tags: ['invoices'], summary: 'Saves the billing details printed on your next invoices' },
      onRequest,
      config: perSession(20),
    },
    async (request) => ({
      success: true as const,
      billing: await saveBillingDetails(deps, authOf(request).user.id, request.body),
    }),
  );

  route(
    app,
    getInvoicesOrderById,
    { schema: { tags: ['invoices'], summary: 'Invoices of one of your orders' }, onRequest },
    async (request) => ({
      success: true as const,
      invoices: await listOrderInvoices(deps, request.params.id, authOf(request).user.id),
    }),
  );

  route(
    app,
    getInvoicesPdf,
    { schema: { tags: ['invoices'], summary: 'One of your invoices as PDF' }, onRequest, config: perSession(60) },
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
  route(app, getAdminOrdersInvoices, { schema: { tags: ['admin'], summary: 'Invoices of an order' } }, async (request) => ({
    success: true as const,
    invoices: await listOrderInvoices(deps, request.params.id),
  }));
  route(app, getAdminInvoicesPdf, { schema: { tags: ['admin'], summary: 'An invoice as PDF' } }, async (request, reply) => {
    const { pdf, filename } = await invoicePdf(deps, request.params.id);
    return reply
      .type('application/pdf')
      .header('content-disposition', `attachment; filename="${filename}"`)
      .header('cache-control', 'private, no-store')
      .send(pdf);
  });
};
