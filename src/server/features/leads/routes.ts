import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../deps.ts';
import { createLead } from './create-lead.ts';
import { firstTouchOf } from '../funnel/visitors.ts';
import { route } from '../../lib/route.ts';
import { postAlertSendEmail, postAlertSendMessage } from '../../../contract/leads.ts';

const DONE = "Thanks! We'll reach out to you soon.";

/** Spec §7 alert/sendEmail and alert/sendMessage: the landing page's lead form. */
export const leadRoutes: FastifyPluginAsyncZod<{ deps: AppDeps }> = async (app, { deps }) => {
  // Strangers can trigger these: a per-IP cap; below it every submission is stored.
  const rateLimit = { max: deps.config.PUBLIC_FORMS_MAX_PER_IP_MINUTE, timeWindow: '1 minute' };

  route(
    app,
    postAlertSendEmail,
    { config: { rateLimit }, schema: { tags: ['leads'], summary: 'Leave an e-mail address to be contacted' } },
    async (request) => {
      await createLead(deps, {
        kind: 'email',
        value: request.body.email,
        page: request.body.page,
        ip: request.ip,
        userAgent: request.headers['user-agent'],
        touch: await firstTouchOf(deps, request),
      });
      return { success: true as const, message: DONE };
    },
  );

  route(
    app,
    postAlertSendMessage,
    { config: { rateLimit }, schema: { tags: ['leads'], summary: 'Leave a phone number to be contacted' } },
    async (request) => {
      await createLead(deps, {
        kind: 'phone',
        value: request.body.phone,
        page: request.body.page,
        ip: request.ip,
        userAgent: request.headers['user-agent'],
        touch: await firstTouchOf(deps, request),
      });
      return { success: true as const, message: DONE };
    },
  );
};
