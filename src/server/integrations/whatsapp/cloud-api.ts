import { WHATSAPP_LANGUAGE, type WhatsAppTemplate } from '../../../contract/whatsapp.ts';
import { hmacHex, isSameSignature } from '../payments/provider.ts';

// The WhatsApp Cloud API (docs/decisions/345-whatsapp-notices-and-consent.md): one call,
// POST {WHATSAPP_API_URL}/{WHATSAPP_PHONE_NUMBER_ID}/messages with a bearer token, sending an approved
// template; and the check of Meta's webhook signature. Tests point WHATSAPP_API_URL at a local fake
// that speaks the same protocol (tests/fakes/whatsapp-graph.ts).

export interface WhatsAppSettings {
  WHATSAPP_API_URL: string;
  WHATSAPP_PHONE_NUMBER_ID?: string;
  WHATSAPP_TOKEN?: string;
  WHATSAPP_TIMEOUT_MS: number;
}

/** Why a send did not go: `retry` for a network error, a timeout, 429 or 5xx; otherwise Meta refused it for good. */
export class WhatsAppSendError extends Error {
  constructor(
    message: string,
    readonly retry: boolean,
  ) {
    super(message);
  }
}

/** Whether the agency set WhatsApp up: without both, nothing is queued or sent. */
export const whatsappConfigured = (s: Pick<WhatsAppSettings, 'WHATSAPP_PHONE_NUMBER_ID' | 'WHATSAPP_TOKEN'>) =>
  Boolean(s.WHATSAPP_PHONE_NUMBER_ID && s.WHATSAPP_TOKEN);

/** Sends one template message; resolves with Meta's message id (wamid…). */
export async function sendTemplate(
  settings: WhatsAppSettings,
  to: string,
  template: WhatsAppTemplate,
  params: readonly string[],
): Promise<string> {
  if (!whatsappConfigured(settings)) throw new WhatsAppSendError('WhatsApp is not configured.', false);
  const url = `${settings.WHATSAPP_API_URL.replace(/\/+$/, '')}/${encodeURIComponent(settings.WHATSAPP_PHONE_NUMBER_ID!)}/messages`;
  const body = {
    messaging_product: 'whatsapp',
    recipient_type: 'individual',
    to,
    type: 'template',
    template: {
      name: template,
      language: { code: WHATSAPP_LANGUAGE },
      components: params.length ? [{ type: 'body', parameters: params.map((text) => ({ type: 'text', text })) }] : [],
    },
  };
  let res: Response;
  try {
    res = await fetch(url, {
      method: 'POST',
      headers: { authorization: `Bearer ${settings.WHATSAPP_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(settings.WHATSAPP_TIMEOUT_MS),
    });
  } catch (err) {
    throw new WhatsAppSendError(`WhatsApp API unreachable: ${(err as Error).message}`, true);
  }
  const answer = (await res.json().catch(() => null)) as {
    messages?: { id?: string }[];
    error?: { message?: string; code?: number };
  } | null;
  if (!res.ok) {
    const reason = answer?.error?.message ?? `HTTP ${res.status}`;
    throw new WhatsAppSendError(`WhatsApp API refused: ${reason}`.slice(0, 300), res.status === 429 || res.status >= 500);
  }
  const id = answer?.messages?.[0]?.id;
  if (!id) throw new WhatsAppSendError('WhatsApp API answered without a message id.', true);
  return id;
}

/** X-Hub-Signature-256: "sha256=" + HMAC-SHA256 of the exact body with the app secret, compared in constant time. */
export function isValidWebhookSignature(appSecret: string, raw: Buffer, header: string | undefined): boolean {
  const given = /^sha256=([0-9a-f]{64})$/i.exec(header ?? '')?.[1];
  return given !== undefined && isSameSignature(hmacHex(appSecret, raw), given);
}
