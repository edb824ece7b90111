import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyReply } from 'fastify';
import type { AppDeps } from '../../deps.ts';
import { authOf, requireUser } from '../../plugins/auth.ts';
import { perSession } from '../../lib/per-session-limit.ts';
import { route } from '../../lib/route.ts';
import {
  getAdminOrdersStatement,
  getAdminOrdersStatementPdf,
  getOrdersStatement,
  getOrdersStatementPdf,
} from '../../../contract/statement.ts';
import { readStatement, statementPdf } from './statement.ts';

const sendPdf = (reply: FastifyReply, { pdf, filename }: { pdf: Buffer; filename: string }) =>
  reply
    .type('application/pdf')
    .header('content-disposition', `attachment; filename="${filename}"`)
    .header('cache-control', 'private, no-store')
    .send(pdf);

/** The customer's statement of one of their orders (another customer's order is a 404). */
export const statementRoutes: FastifyPluginAsyncZod<{ deps: AppDeps }> = async (app, { deps }) => {
  const onRequest = requireUser(deps.db);
  route(
    app,
    getOrdersStatement,
    { schema: { tags: ['orders'], summary: 'The statement of account of one of your orders' }, onRequest },
    async (request) => readStatement(deps, request.params.orderId, authOf(request).user.id),
  );
  route(
    app,
    getOrdersStatementPdf,
    { schema: { tags: ['orders'], summary: 'The statement of account as a PDF' }, onRequest, config: perSession(30) },
    async (request, reply) => sendPdf(reply, await statementPdf(deps, request.params.orderId, authOf(request).user.id)),
  );
};

/** Back office (mounted under /admin, whose guard reads permissions.ts). */
export const adminStatementRoutes: FastifyPluginAsyncZod<{ deps: AppDeps }> = async (app, { deps }) => {
  route(app, getAdminOrdersStatement, { schema: { tags: ['admin'], summary: "An order's statement of account" } }, async (request) =>
    readStatement(deps, request.params.orderId, null),
  );
  route(
    app,
    getAdminOrdersStatementPdf,
    { schema: { tags: ['admin'], summary: "An order's statement of account as a PDF" } },
    async (request, reply) => sendPdf(reply, await statementPdf(deps, request.params.orderId, null)),
  );
};
