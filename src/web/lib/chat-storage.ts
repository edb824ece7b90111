// What the widget keeps in the browser: the live chat's capability id and the AI tab's transcript
// with its memory handle (the real history is on the server).
const CHAT_KEY = 'chat.id';
const AI_KEY = 'chat.ai';

const safe = <T>(fn: () => T, fallback: T): T => {
  try {
    return fn();
  } catch {
    return fallback;
  }
};

export const storedChatId = (): string | null => safe(() => localStorage.getItem(CHAT_KEY), null);
export const storeChatId = (id: string | null) =>
  safe(() => (id ? localStorage.setItem(CHAT_KEY, id) : localStorage.removeItem(CHAT_KEY)), undefined);

export interface AiTurn {
  from: 'user' | 'bot';
  text: string;
}
export interface AiTranscript {
  memory: string | null;
  turns: AiTurn[];
}

export const loadAiTranscript = (): AiTranscript =>
  safe(() => JSON.parse(localStorage.getItem(AI_KEY) ?? 'null') as AiTranscript | null, null) ?? { memory: null, turns: [] };
export const saveAiTranscript = (t: AiTranscript) =>
  safe(() => localStorage.setItem(AI_KEY, JSON.stringify({ memory: t.memory, turns: t.turns.slice(-40) })), undefined);

/** On sign-out the next person on this browser must not inherit the chat or the AI transcript. */
export const clearChatStorage = () =>
  safe(() => {
    localStorage.removeItem(CHAT_KEY);
    localStorage.removeItem(AI_KEY);
  }, undefined);
