import { createServer, type IncomingMessage } from 'node:http';
import { createHmac, randomBytes } from 'node:crypto';

// A local WhatsApp Cloud API (Meta's Graph API) for the tests: POST /{phone-number-id}/messages with a
// bearer token and a template message answers as Meta does ({ messaging_product, contacts, messages:
// [{ id: "wamid…" }] }); a wrong token is 401 with Graph's error shape, an unknown number id 400.
// `mode` 'fail' answers 500 (retried), 'reject' 400 (failed for good). Also signs webhook bodies as
// Meta does (X-Hub-Signature-256).

export interface GraphRequest {
  phoneNumberId: string;
  authorization: string | undefined;
  body: {
    messaging_product: string;
    to: string;
    type: string;
    template: { name: string; language: { code: string }; components: { type: string; parameters: { type: string; text: string }[] }[] };
  };
}

const readBody = (req: IncomingMessage) =>
  new Promise<string>((resolve, reject) => {
    let data = '';
    req.on('data', (c) => (data += c));
    req.on('end', () => resolve(data));
    req.on('error', reject);
  });

export async function startFakeWhatsAppGraph(opts: { token: string; phoneNumberId: string }) {
  const state = { mode: 'ok' as 'ok' | 'fail' | 'reject' };
  const requests: GraphRequest[] = [];
  const server = createServer((req, res) => {
    void (async () => {
      const raw = await readBody(req);
      const send = (status: number, body: unknown) =>
        res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      const m = /^\/v21\.0\/([^/]+)\/messages$/.exec(req.url ?? '');
      if (req.method !== 'POST' || !m) return send(404, { error: { message: 'Unknown path', type: 'GraphMethodException', code: 100 } });
      if (req.headers.authorization !== `Bearer ${opts.token}`)
        return send(401, { error: { message: 'Invalid OAuth access token.', type: 'OAuthException', code: 190 } });
      if (m[1] !== opts.phoneNumberId)
        return send(400, { error: { message: 'Unsupported post request.', type: 'GraphMethodException', code: 100 } });
      const body = JSON.parse(raw) as GraphRequest['body'];
      requests.push({ phoneNumberId: m[1], authorization: req.headers.authorization, body });
      if (state.mode === 'fail') return send(500, { error: { message: 'Service temporarily unavailable', code: 2 } });
      if (state.mode === 'reject' || body.messaging_product !== 'whatsapp' || body.type !== 'template')
        return send(400, { error: { message: '(#131026) Message undeliverable', code: 131026 } });
      send(200, {
        messaging_product: 'whatsapp',
        contacts: [{ input: body.to, wa_id: body.to }],
        messages: [{ id: `wamid.${randomBytes(12).toString('hex')}` }],
      });
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return {
    /** WHATSAPP_API_URL for the app. */
    url: `http://127.0.0.1:${port}/v21.0`,
    requests,
    state,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The header Meta sends with a webhook body. */
export const metaSignature = (appSecret: string, body: string) => `sha256=${createHmac('sha256', appSecret).update(body).digest('hex')}`;
