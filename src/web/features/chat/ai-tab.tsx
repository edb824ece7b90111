import { useEffect, useState } from 'react';
import { ASSISTANT_FALLBACK, ASSISTANT_INPUT_MAX } from '../../../contract/assistant.ts';
import { call } from '../../lib/call.ts';
import { siteConfig } from '../../lib/site-config.ts';
import { loadAiTranscript, saveAiTranscript, type AiTranscript } from '../../lib/chat-storage.ts';
import { Composer, MessageList, QuickQuestions, TypingDots, type Bubble } from './message-list.tsx';
import { QUICK_QUESTIONS } from './quick-questions.ts';
import { postChatChat } from '../../../contract/assistant.ts';

const WORD_MS = 150; // spec §9: one word every 150 ms

/** The 'Ask' tab: the AI assistant, its reply revealed word by word behind a loading indicator. */
export function AiTab({ onTalkToPerson }: { onTalkToPerson: () => void }) {
  const [transcript, setTranscript] = useState<AiTranscript>(loadAiTranscript);
  const [isLoading, setLoading] = useState(false);
  // The answer is stored whole at once; only its display is revealed word by word.
  const [reveal, setReveal] = useState<{
    turn: number;
    words: string[];
    shown: number;
  } | null>(null);
  const isRevealing = reveal !== null && reveal.shown < reveal.words.length;
  const { brand, assistantModel } = siteConfig();

  useEffect(() => saveAiTranscript(transcript), [transcript]);

  useEffect(() => {
    if (!reveal || reveal.shown >= reveal.words.length) return;
    const timer = setTimeout(() => setReveal((r) => r && { ...r, shown: r.shown + 1 }), WORD_MS);
    return () => clearTimeout(timer);
  }, [reveal]);

  async function ask(question: string) {
    const text = question.trim().slice(0, ASSISTANT_INPUT_MAX);
    if (!text || isLoading || isRevealing) return;
    const turn = transcript.turns.length + 1;
    setTranscript((t) => ({
      ...t,
      turns: [...t.turns, { from: 'user', text }],
    }));
    setLoading(true);
    let answer: string;
    try {
      const r = await call(postChatChat, { body: { user_input: text, memory: transcript.memory } });
      setTranscript((t) => ({ ...t, memory: r.memory }));
      answer = r.response?.trim() ? r.response : ASSISTANT_FALLBACK.empty;
    } catch {
      answer = ASSISTANT_FALLBACK.error;
    } finally {
      setLoading(false);
    }
    setTranscript((t) => ({
      ...t,
      turns: [...t.turns, { from: 'bot', text: answer }],
    }));
    // Split on spaces only, so paragraph breaks survive the word-by-word reveal.
    setReveal({ turn, words: answer.split(/ +/), shown: 1 });
  }

  const bubbles: Bubble[] = transcript.turns.map((t, i) => ({
    key: String(i),
    mine: t.from === 'user',
    author: t.from === 'user' ? 'You' : 'Assistant',
    text: isRevealing && reveal.turn === i ? reveal.words.slice(0, reveal.shown).join(' ') : t.text,
  }));
  const hasAsked = transcript.turns.some((t) => t.from === 'user');

  return (
    <div className="flex min-h-0 flex-1 flex-col" data-testid="ai-tab">
      <MessageList
        label="Conversation with the assistant"
        bubbles={[
          {
            key: 'hello',
            mine: false,
            author: 'Assistant',
            text: `Hi! I'm the ${brand} assistant. Ask me about our services, pricing, payments or delivery.`,
          },
          ...bubbles,
        ]}
        footer={isLoading ? <TypingDots label="The assistant is writing an answer" /> : undefined}
      />
      {!hasAsked && <QuickQuestions questions={QUICK_QUESTIONS} onPick={(q) => void ask(q)} />}
      <div className="flex items-center justify-between gap-2 px-3 pb-1 text-xs">
        <p className="text-muted" data-testid="assistant-disclaimer">
          {assistantModel
            ? `This bot is experimental and powered by ${assistantModel}. ${brand} is not responsible for its answers.`
            : `This bot answers from ${brand}'s own pages (no AI model). ${brand} is not responsible for its answers.`}
        </p>
        <button
          type="button"
          onClick={onTalkToPerson}
          className="shrink-0 font-semibold text-violet-300 underline underline-offset-2 hover:text-white"
        >
          Talk to a person
        </button>
      </div>
      <Composer onSend={ask} disabled={isLoading || isRevealing} placeholder="Ask a question…" label="Your question for the assistant" />
    </div>
  );
}
