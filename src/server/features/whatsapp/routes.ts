import { timingSafeEqual } from 'node:crypto';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../deps.ts';
import { authOf, requireUser } from '../../plugins/auth.ts';
import { badRequest, forbidden, notFound, unauthorized } from '../../lib/app-error.ts';
import { route } from '../../lib/route.ts';
import { isValidWebhookSignature } from '../../integrations/whatsapp/cloud-api.ts';
import {
  deleteUserWhatsappOptIn,
  getUserWhatsapp,
  getWhatsappWebhook,
  postUserWhatsappOptIn,
  postWhatsappWebhook,
} from '../../../contract/whatsapp.ts';
import { optIn, optOut, optOutByReply, whatsappStatusOf } from './consent.ts';
import { recordStatus } from './send-whatsapp.ts';

// WhatsApp (docs/decisions/345-whatsapp-notices-and-consent.md): the customer's opt-in on the
// dashboard, and Meta's webhook — its verification handshake and its signed deliveries.

const tags = ['whatsapp'];

export const whatsappRoutes: FastifyPluginAsyncZod<{ deps: AppDeps }> = async (app, { deps }) => {
  const user = { preHandler: requireUser(deps.db) };
  route(
    app,
    getUserWhatsapp,
    { ...user, schema: { tags, summary: 'Whether WhatsApp notices are on, for which number, since when, and the wording' } },
    async (request) => whatsappStatusOf(deps, authOf(request).user),
  );
  route(
    app,
    postUserWhatsappOptIn,
    { ...user, schema: { tags, summary: "Turn WhatsApp notices on for the profile's number; the wording shown is recorded" } },
    async (request) => optIn(deps, authOf(request).user),
  );
  route(
    app,
    deleteUserWhatsappOptIn,
    { ...user, schema: { tags, summary: 'Turn WhatsApp notices off (recorded like the opt-in)' } },
    async (request) => optOut(deps, authOf(request).user),
  );
  await app.register(whatsappWebhookRoutes, { deps });
};

const sameText = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

interface WebhookBody {
  entry?: {
    changes?: {
      field?: string;
      value?: {
        statuses?: { id?: string; status?: string; timestamp?: string; errors?: { code?: number; title?: string }[] }[];
        messages?: { from?: string; type?: string; text?: { body?: string }; button?: { text?: string; payload?: string } }[];
      };
    }[];
  }[];
}

const STOP_WORDS = new Set(['STOP', 'UNSUBSCRIBE', 'STOP ALL']);

/** Its own plugin: the raw body parser (the signature covers the exact bytes) applies to the webhook only. */
const whatsappWebhookRoutes: FastifyPluginAsyncZod<{ deps: AppDeps }> = async (app, { deps }) => {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit: 256 * 1024 }, (_req, body, done) => done(null, body));
  const limit = { config: { rateLimit: { max: 600, timeWindow: '1 minute' } } };

  route(
    app,
    getWhatsappWebhook,
    { ...limit, schema: { tags, summary: "Meta's verification: answers hub.challenge when hub.verify_token is WHATSAPP_VERIFY_TOKEN" } },
    async (request, reply) => {
      const expected = deps.config.WHATSAPP_VERIFY_TOKEN;
      if (!expected) throw notFound('The WhatsApp webhook is not configured.');
      const q = request.query;
      if (q['hub.mode'] !== 'subscribe' || !q['hub.verify_token'] || !sameText(q['hub.verify_token'], expected))
        throw forbidden('Verification failed.');
      return reply.type('text/plain; charset=utf-8').send(q['hub.challenge'] ?? '');
    },
  );

  route(
    app,
    postWhatsappWebhook,
    { ...limit, schema: { tags, summary: 'Meta’s signed webhook (X-Hub-Signature-256): message statuses and STOP replies' } },
    async (request) => {
      const secret = deps.config.WHATSAPP_APP_SECRET;
      if (!secret) throw notFound('The WhatsApp webhook is not configured.');
      const raw = request.body as Buffer;
      if (!Buffer.isBuffer(raw) || raw.length === 0) throw badRequest('Empty webhook body.');
      const header = request.headers['x-hub-signature-256'];
      if (!isValidWebhookSignature(secret, raw, Array.isArray(header) ? header[0] : header))
        throw unauthorized('Invalid webhook signature.');
      let body: WebhookBody;
      try {
        body = JSON.parse(raw.toString('utf8')) as WebhookBody;
      } catch {
        throw badRequest('The webhook body is not JSON.');
      }
      for (const entry of body.entry ?? []) {
        for (const change of entry.changes ?? []) {
          for (const s of change.value?.statuses ?? []) {
            if (!s.id || !s.status) continue;
            const at = s.timestamp && /^\d+$/.test(s.timestamp) ? new Date(Number(s.timestamp) * 1000) : new Date();
            const error = s.errors?.[0] ? `${s.errors[0].code ?? ''} ${s.errors[0].title ?? ''}`.trim().slice(0, 300) : undefined;
            await recordStatus(deps.db, String(s.id).slice(0, 200), s.status, at, error);
          }
          for (const m of change.value?.messages ?? []) {
            const text = (m.text?.body ?? m.button?.payload ?? m.button?.text ?? '').trim();
            const from = String(m.from ?? '').replace(/\D/g, '');
            if (!from || !STOP_WORDS.has(text.toUpperCase())) continue;
            const stopped = await optOutByReply(deps.db, from, text);
            if (stopped) deps.log.info({ stopped }, 'whatsapp: opted out by a STOP reply');
          }
        }
      }
      return { received: true as const };
    },
  );
};
