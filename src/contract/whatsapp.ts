import { z } from 'zod';
import { defineOperation } from './operation.ts';

// WhatsApp notices with recorded consent (docs/decisions/345-whatsapp-notices-and-consent.md).

/**
 * The approved templates, language `en`, and the body parameters each takes, in order
 * ({{1}}, {{2}}, …). docs/operations.md lists the same for the owner to register with Meta; a test
 * keeps the two in step. `kind` is the notice kind the person's preferences name.
 */
export const WHATSAPP_TEMPLATES = {
  payment_receipt: { kind: 'payment_receipt', params: ['customer name', 'order id', 'amount paid', 'document number', 'order link'] },
  stage_update: { kind: 'stage_completed', params: ['customer name', 'order id', 'stage completed', 'order link'] },
  review_ready: { kind: 'review_opened', params: ['customer name', 'order id', 'review round', 'order link'] },
  payment_due: { kind: 'payment_due', params: ['customer name', 'order id', 'amount due', 'order link'] },
  site_down: { kind: 'site_down', params: ['customer name', 'order id', 'site address', 'order link'] },
  support_reply: { kind: 'agency_reply', params: ['customer name', 'order id', 'order link'] },
} as const;
export type WhatsAppTemplate = keyof typeof WHATSAPP_TEMPLATES;
export const WHATSAPP_LANGUAGE = 'en';

export const whatsappStatus = z.object({
  optedIn: z.boolean(),
  /** The number on the profile, E.164 with '+' (null when the profile has none). */
  phone: z.string().nullable(),
  /** When the latest choice (on or off) was recorded; null when none was ever made. */
  at: z.string().nullable(),
  /** The exact wording shown for opting in (before a choice: what the dashboard will show). */
  wording: z.string(),
  /** Whether the agency has WhatsApp set up at all (no messages are sent otherwise). */
  available: z.boolean(),
});
export type WhatsAppStatus = z.infer<typeof whatsappStatus>;

export const whatsappOptInBody = z.strictObject({
  consent: z.literal(true, { message: 'Tick the box to agree to WhatsApp messages.' }),
});

/** The opt-in, as shown on the dashboard */
export const getUserWhatsapp = defineOperation({
  method: 'GET',
  path: '/api/v1/user/whatsapp',
  responses: { 200: whatsappStatus },
});

/** Turn WhatsApp notices on for the profile's phone number; 400 when the profile has none */
export const postUserWhatsappOptIn = defineOperation({
  method: 'POST',
  path: '/api/v1/user/whatsapp/opt-in',
  body: whatsappOptInBody,
  responses: { 200: whatsappStatus },
});

/** Turn WhatsApp notices off */
export const deleteUserWhatsappOptIn = defineOperation({
  method: 'DELETE',
  path: '/api/v1/user/whatsapp/opt-in',
  responses: { 200: whatsappStatus },
});

export const whatsappVerifyQuery = z.object({
  'hub.mode': z.string().max(50).optional(),
  'hub.verify_token': z.string().max(500).optional(),
  'hub.challenge': z.string().max(500).optional(),
});

/** Meta's webhook verification: answers hub.challenge as text when hub.verify_token matches */
export const getWhatsappWebhook = defineOperation({
  method: 'GET',
  path: '/api/v1/whatsapp/webhook',
  query: whatsappVerifyQuery,
  responses: { 200: z.string() },
});

/** Meta's signed webhook (X-Hub-Signature-256): message statuses and inbound STOP */
export const postWhatsappWebhook = defineOperation({
  method: 'POST',
  path: '/api/v1/whatsapp/webhook',
  responses: { 200: z.object({ received: z.literal(true) }) },
});
