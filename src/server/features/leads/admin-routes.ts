import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { uuidParams } from '../../../contract/admin.ts';
import { contactListResponse, csvQuery, csvResponse, handledResponse, inboxQuery, leadListResponse } from '../../../contract/admin-leads.ts';
import { errorResponses } from '../../../contract/common.ts';
import type { AppDeps } from '../../deps.ts';
import { authOf } from '../../plugins/auth.ts';
import { contactsCsv, leadsCsv, listContacts, listLeads, markHandled } from './inbox.ts';

const tags = ['admin'];
const security = [{ bearer: [] }];
const csvHeaders = (name: string) => ({
  'content-type': 'text/csv; charset=utf-8',
  'content-disposition': `attachment; filename="${name}-${new Date().toISOString().slice(0, 10)}.csv"`,
  'cache-control': 'no-store',
});

export const inboxRoutes: FastifyPluginAsyncZod<{ deps: AppDeps }> = async (app, { deps }) => {
  app.get(
    '/leads',
    { schema: { tags, security, summary: 'Leads (e-mail or phone from the landing page), new or handled', querystring: inboxQuery, response: { 200: leadListResponse, ...errorResponses } } },
    async (request) => listLeads(deps.db, request.query),
  );
  app.get(
    '/leads.csv',
    { schema: { tags, security, summary: 'Leads as CSV', querystring: csvQuery, produces: ['text/csv'], response: { 200: csvResponse, ...errorResponses } } },
    async (request, reply) => reply.headers(csvHeaders('leads')).send(await leadsCsv(deps.db, request.query.status)),
  );
  app.post(
    '/leads/:id/handled',
    { schema: { tags, security, summary: 'Mark a lead handled', params: uuidParams, response: { 200: handledResponse, ...errorResponses } } },
    async (request) => markHandled(deps.db, authOf(request).user.id, 'lead', request.params.id),
  );
  app.get(
    '/contacts',
    { schema: { tags, security, summary: 'Contact-form messages, new or handled', querystring: inboxQuery, response: { 200: contactListResponse, ...errorResponses } } },
    async (request) => listContacts(deps.db, request.query),
  );
  app.get(
    '/contacts.csv',
    { schema: { tags, security, summary: 'Contact messages as CSV', querystring: csvQuery, produces: ['text/csv'], response: { 200: csvResponse, ...errorResponses } } },
    async (request, reply) => reply.headers(csvHeaders('contact-messages')).send(await contactsCsv(deps.db, request.query.status)),
  );
  app.post(
    '/contacts/:id/handled',
    { schema: { tags, security, summary: 'Mark a contact message handled', params: uuidParams, response: { 200: handledResponse, ...errorResponses } } },
    async (request) => markHandled(deps.db, authOf(request).user.id, 'contact', request.params.id),
  );
};
