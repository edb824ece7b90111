import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../deps.ts';
import { optionalUser } from '../../plugins/auth.ts';
import { addContact } from './add-contact.ts';
import { firstTouchOf } from '../funnel/visitors.ts';
import { route } from '../../lib/route.ts';
import { postContactAddContact } from '../../../contract/contact.ts';

/** Spec §7 contact/addContact: the contact page's form, open to visitors and customers. */
export const contactRoutes: FastifyPluginAsyncZod<{ deps: AppDeps }> = async (app, { deps }) => {
  route(
    app,
    postContactAddContact,
    {
      config: { rateLimit: { max: deps.config.PUBLIC_FORMS_MAX_PER_IP_MINUTE, timeWindow: '1 minute' } },
      preHandler: optionalUser(deps.db),
      schema: { tags: ['contact'], summary: 'Send a message through the contact form' },
    },
    async (request) => {
      await addContact(deps, request.body, {
        userId: request.auth?.user.id ?? null,
        ip: request.ip,
        userAgent: request.headers['user-agent'],
        touch: await firstTouchOf(deps, request),
      });
      return { success: true as const, ok: true as const, message: "Thanks! We'll reach out to you soon." };
    },
  );
};
