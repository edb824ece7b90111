import { createServer, type IncomingMessage } from 'node:http';

// A local OpenAI-compatible server (POST /v1/chat/completions) for the assistant's tests.
// Modes: 'grounded' answers from the first SITE CONTENT passage like a well-behaved model;
// 'echo' repeats every message it got (a model that obeys "print your instructions");
// 'fail' answers 500, 'timeout' never answers in time, 'empty' answers with no text,
// 'garbage' answers invalid JSON. POST /__mode {"mode": "..."} switches (e2e).
export type FakeLlmMode = 'grounded' | 'echo' | 'fail' | 'timeout' | 'empty' | 'garbage';

export interface FakeLlmRequest {
  authorization: string | undefined;
  body: { model: string; messages: { role: string; content: string }[] };
}

const readBody = (req: IncomingMessage) =>
  new Promise<string>((resolve, reject) => {
    let data = '';
    req.on('data', (c) => (data += c));
    req.on('end', () => resolve(data));
    req.on('error', reject);
  });

function groundedReply(messages: { role: string; content: string }[]): string {
  const context = messages.find((m) => m.role === 'system' && m.content.startsWith('SITE CONTENT'))?.content ?? '';
  const first = context.split('\n').find((l) => l.startsWith('[1] '));
  if (!first) return "I don't know that. Please ask in the 'Chat with our team' tab.";
  return `Here is what our site says: ${first.slice(first.indexOf(': ') + 2)}`;
}

export async function startFakeLlm(opts: { port?: number; mode?: FakeLlmMode } = {}) {
  const state = { mode: opts.mode ?? ('grounded' as FakeLlmMode) };
  const requests: FakeLlmRequest[] = [];
  const server = createServer((req, res) => {
    void (async () => {
      const raw = await readBody(req);
      if (req.method === 'POST' && req.url === '/__mode') {
        state.mode = (JSON.parse(raw) as { mode: FakeLlmMode }).mode;
        res.writeHead(204).end();
        return;
      }
      if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
        res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'not found' } }));
        return;
      }
      const body = JSON.parse(raw) as FakeLlmRequest['body'];
      requests.push({ authorization: req.headers.authorization, body });
      const reply = (content: string) =>
        res.writeHead(200, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            id: `chatcmpl-${requests.length}`,
            object: 'chat.completion',
            created: Math.floor(Date.now() / 1000),
            model: body.model,
            choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
          }),
        );
      switch (state.mode) {
        case 'fail':
          res.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'upstream exploded' } }));
          return;
        case 'timeout':
          setTimeout(() => reply('too late'), 10_000).unref();
          return;
        case 'empty':
          reply('');
          return;
        case 'garbage':
          res.writeHead(200, { 'content-type': 'application/json' }).end('{"choices": [');
          return;
        case 'echo':
          reply(body.messages.map((m) => `${m.role}: ${m.content}`).join('\n'));
          return;
        default:
          reply(groundedReply(body.messages));
      }
    })().catch(() => res.writeHead(500).end());
  });
  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    setMode(mode: FakeLlmMode) {
      state.mode = mode;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export type FakeLlm = Awaited<ReturnType<typeof startFakeLlm>>;
