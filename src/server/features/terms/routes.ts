import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { getOrdersTerms, getTermsVersionsByVersion } from '../../../contract/terms.ts';
import type { AppDeps } from '../../deps.ts';
import { route } from '../../lib/route.ts';
import { authOf, requireUser } from '../../plugins/auth.ts';
import { orderTermsOf, termsVersionText } from './terms-acceptance.ts';

const tags = ['terms'];

/** The accepted terms, readable again (docs/decisions/272-accepted-terms-readable.md). */
export const termsRoutes: FastifyPluginAsyncZod<{ deps: AppDeps }> = async (app, { deps }) => {
  route(
    app,
    getTermsVersionsByVersion,
    { schema: { tags, summary: 'The wording of one version of the Terms and Conditions, as accepted' } },
    async (request, reply) => {
      const text = await termsVersionText(deps.db, request.params.version, {
        brand: deps.config.BRAND_NAME,
        email: deps.config.BRAND_EMAIL,
      });
      // A version's wording never changes (the version is its hash); the brand filled in may.
      void reply.header('cache-control', 'public, max-age=3600');
      return text;
    },
  );
  route(
    app,
    getOrdersTerms,
    { schema: { tags, summary: 'Which terms were accepted for your order, and when' }, onRequest: requireUser(deps.db) },
    async (request) => orderTermsOf(deps.db, request.params.orderId, authOf(request).user.id),
  );
};
