import { z } from 'zod';
import { multiLine } from './text-policy.ts';
import { defineOperation } from './operation.ts';

// The AI assistant (spec §7 "chat answer": POST chat/chat/ {user_input, memory} → {response, memory}).
export const ASSISTANT_INPUT_MAX = 1000;

/** The spec's two fallback texts (§8 "AI chat failure"). */
export const ASSISTANT_FALLBACK = {
  error: 'Sorry, something went wrong.',
  empty: "Sorry, I couldn't process that.",
} as const;

export const assistantRequest = z.object({
  user_input: multiLine(
    z
      .string()
      .transform((s) => s.trim())
      .pipe(
        z
          .string()
          .min(1, 'Please type a question.')
          .max(ASSISTANT_INPUT_MAX, `Questions can be at most ${ASSISTANT_INPUT_MAX.toLocaleString('en-US')} characters.`),
      ),
  ),
  /**
   * Only an opaque handle to the history the server keeps. Anything else (a forged history, an
   * unknown id) simply starts a new conversation.
   */
  memory: z.unknown().optional(),
});
export type AssistantRequest = z.input<typeof assistantRequest>;

export const assistantResponse = z.object({
  response: z.string(),
  memory: z.string(),
});
export type AssistantResponse = z.infer<typeof assistantResponse>;

// Operations (docs/decisions/280-contract-operations.md).

export const postChatChat = defineOperation({
  method: 'POST',
  path: '/api/v1/chat/chat/',
  body: assistantRequest,
  responses: { 200: assistantResponse },
});
