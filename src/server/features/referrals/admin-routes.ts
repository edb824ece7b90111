import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { uuidParams } from '../../../contract/admin.ts';
import { cashbackListResponse, cashbackQuery, markPaidBody, markPaidResponse } from '../../../contract/admin-cashback.ts';
import { errorResponses } from '../../../contract/common.ts';
import type { AppDeps } from '../../deps.ts';
import { authOf } from '../../plugins/auth.ts';
import { listCashback, markCashbackPaid } from './cashback.ts';

const tags = ['admin'];
const security = [{ bearer: [] }];

export const cashbackRoutes: FastifyPluginAsyncZod<{ deps: AppDeps }> = async (app, { deps }) => {
  app.get(
    '/cashback',
    { schema: { tags, security, summary: 'Referral cashback ledger per referrer (pending / earned / paid)', querystring: cashbackQuery, response: { 200: cashbackListResponse, ...errorResponses } } },
    async (request) => listCashback(deps.db, request.query.state),
  );
  app.post(
    '/cashback/:id/paid',
    { schema: { tags, security, summary: 'Mark earned cashback paid, with the payout reference', params: uuidParams, body: markPaidBody, response: { 200: markPaidResponse, ...errorResponses } } },
    async (request) => ({ entry: await markCashbackPaid(deps.db, authOf(request).user.id, request.params.id, request.body.payoutReference) }),
  );
};
