// Any OpenAI-compatible chat completions API (OpenAI, Azure-compatible gateways, Ollama, vLLM…),
// called with plain fetch: one POST, no SDK, so the fake in tests/fakes/llm.ts speaks the same.
export interface LlmMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface LlmClient {
  readonly model: string;
  /** The reply text ('' when the API answered with no text). Throws LlmError on any failure. */
  complete(messages: LlmMessage[]): Promise<string>;
}

export class LlmError extends Error {
  constructor(
    message: string,
    readonly kind: 'timeout' | 'http' | 'network' | 'format',
  ) {
    super(message);
    this.name = 'LlmError';
  }
}

export interface LlmOptions {
  baseUrl: string;
  apiKey?: string;
  model: string;
  timeoutMs: number;
  maxTokens?: number;
}

export function createLlmClient(opts: LlmOptions): LlmClient {
  const endpoint = `${opts.baseUrl.replace(/\/+$/, '')}/chat/completions`;
  return {
    model: opts.model,
    async complete(messages) {
      let res: Response;
      try {
        res = await fetch(endpoint, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            ...(opts.apiKey ? { authorization: `Bearer ${opts.apiKey}` } : {}),
          },
          body: JSON.stringify({ model: opts.model, messages, temperature: 0.2, max_tokens: opts.maxTokens ?? 400 }),
          signal: AbortSignal.timeout(opts.timeoutMs),
        });
      } catch (err) {
        const name = err instanceof Error ? err.name : '';
        if (name === 'TimeoutError' || name === 'AbortError') throw new LlmError('LLM request timed out', 'timeout');
        throw new LlmError('LLM request failed to connect', 'network');
      }
      // The status is enough for the log; the body may echo the request and must not be logged.
      if (!res.ok) {
        await res.body?.cancel().catch(() => {});
        throw new LlmError(`LLM answered HTTP ${res.status}`, 'http');
      }
      let data: unknown;
      try {
        data = await res.json();
      } catch (err) {
        const name = err instanceof Error ? err.name : '';
        if (name === 'TimeoutError' || name === 'AbortError') throw new LlmError('LLM request timed out', 'timeout');
        throw new LlmError('LLM answered with invalid JSON', 'format');
      }
      const content = (data as { choices?: { message?: { content?: unknown } }[] })?.choices?.[0]?.message?.content;
      return typeof content === 'string' ? content.trim() : '';
    },
  };
}
