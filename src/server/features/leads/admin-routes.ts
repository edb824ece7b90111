import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../deps.ts';
import { authOf } from '../../plugins/auth.ts';
import { contactsCsv, leadsCsv, listContacts, listLeads, markHandled } from './inbox.ts';
import { route } from '../../lib/route.ts';
import {
  getAdminLeads,
  getAdminLeadsCsv,
  postAdminLeadsHandled,
  getAdminContacts,
  getAdminContactsCsv,
  postAdminContactsHandled,
} from '../../../contract/admin-leads.ts';

const tags = ['admin'];
const security = [{ bearer: [] }];
const csvHeaders = (name: string) => ({
  'content-type': 'text/csv; charset=utf-8',
  'content-disposition': `attachment; filename="${name}-${new Date().toISOString().slice(0, 10)}.csv"`,
  'cache-control': 'no-store',
});

export const inboxRoutes: FastifyPluginAsyncZod<{ deps: AppDeps }> = async (app, { deps }) => {
  route(
    app,
    getAdminLeads,
    { schema: { tags, security, summary: 'Leads (e-mail or phone from the landing page), new or handled' } },
    async (request) => listLeads(deps.db, request.query),
  );
  route(app, getAdminLeadsCsv, { schema: { tags, security, summary: 'Leads as CSV', produces: ['text/csv'] } }, async (request, reply) =>
    reply.headers(csvHeaders('leads')).send(await leadsCsv(deps.db, request.query.status)),
  );
  route(app, postAdminLeadsHandled, { schema: { tags, security, summary: 'Mark a lead handled' } }, async (request) =>
    markHandled(deps.db, authOf(request).user.id, 'lead', request.params.id),
  );
  route(app, getAdminContacts, { schema: { tags, security, summary: 'Contact-form messages, new or handled' } }, async (request) =>
    listContacts(deps.db, request.query),
  );
  route(
    app,
    getAdminContactsCsv,
    { schema: { tags, security, summary: 'Contact messages as CSV', produces: ['text/csv'] } },
    async (request, reply) => reply.headers(csvHeaders('contact-messages')).send(await contactsCsv(deps.db, request.query.status)),
  );
  route(app, postAdminContactsHandled, { schema: { tags, security, summary: 'Mark a contact message handled' } }, async (request) =>
    markHandled(deps.db, authOf(request).user.id, 'contact', request.params.id),
  );
};
