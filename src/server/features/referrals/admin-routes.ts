import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../deps.ts';
import { authOf } from '../../plugins/auth.ts';
import { listCashback, markCashbackPaid } from './cashback.ts';
import { route } from '../../lib/route.ts';
import { getAdminCashback, postAdminCashbackPaid } from '../../../contract/admin-cashback.ts';

const tags = ['admin'];
const security = [{ bearer: [] }];

export const cashbackRoutes: FastifyPluginAsyncZod<{ deps: AppDeps }> = async (app, { deps }) => {
  route(
    app,
    getAdminCashback,
    { schema: { tags, security, summary: 'Referral cashback ledger per referrer (pending / earned / paid)' } },
    async (request) => listCashback(deps.db, request.query.state),
  );
  route(
    app,
    postAdminCashbackPaid,
    { schema: { tags, security, summary: 'Mark earned cashback paid, with the payout reference' } },
    async (request) => ({
      entry: await markCashbackPaid(deps.db, authOf(request).user.id, request.params.id, request.body.payoutReference),
    }),
  );
};
