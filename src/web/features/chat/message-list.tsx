import { useEffect, useRef, useState, type ReactNode } from 'react';
import { formatTime } from '../../../domain/when.ts';

export interface Bubble {
  key: string;
  mine: boolean;
  author: string;
  text: string;
  time?: string;
}

/** "3:05 PM IST": a time says its time zone (the viewer's). */
export const timeOf = (iso?: string) => (iso ? formatTime(iso) : undefined);

/**
 * A scrolling list of chat bubbles. Text is rendered as React text nodes, so HTML typed by anyone
 * shows as text.
 */
export function MessageList({ bubbles, footer, label }: { bubbles: Bubble[]; footer?: ReactNode; label: string }) {
  const end = useRef<HTMLDivElement>(null);
  const last = bubbles.at(-1);
  useEffect(() => {
    end.current?.scrollIntoView?.({ block: 'end' });
  }, [bubbles.length, last?.text, footer]);
  return (
    <div
      role="log"
      aria-label={label}
      aria-live="polite"
      className="flex min-h-0 flex-1 flex-col gap-2 overflow-y-auto px-3 py-3"
      tabIndex={0}
    >
      {bubbles.map((b) => (
        <div key={b.key} className={`flex flex-col ${b.mine ? 'items-end' : 'items-start'}`} data-testid="chat-message" data-mine={b.mine}>
          <span className="sr-only">{b.author}: </span>
          <p
            className={`max-w-[85%] rounded-2xl px-3 py-2 text-sm leading-relaxed break-words whitespace-pre-wrap ${
              b.mine ? 'rounded-br-sm bg-accent-strong text-white' : 'rounded-bl-sm border border-line bg-page text-ink'
            }`}
          >
            {b.text}
          </p>
          {b.time && (
            <time dateTime={b.time} className="mt-0.5 px-1 text-[11px] text-muted" data-testid="chat-message-time">
              {timeOf(b.time)}
            </time>
          )}
        </div>
      ))}
      {footer}
      <div ref={end} />
    </div>
  );
}

/** Three pulsing dots: the loading indicator of the AI tab and the typing indicator of the human tab. */
export function TypingDots({ label }: { label: string }) {
  return (
    <div className="flex items-start" data-testid="typing-indicator">
      <span role="status" className="inline-flex gap-1 rounded-2xl rounded-bl-sm border border-line bg-page px-3 py-3">
        {[0, 150, 300].map((d) => (
          <span key={d} className="h-2 w-2 animate-pulse rounded-full bg-muted" style={{ animationDelay: `${d}ms` }} aria-hidden="true" />
        ))}
        <span className="sr-only">{label}</span>
      </span>
    </div>
  );
}

export function QuickQuestions({ questions, onPick }: { questions: readonly string[]; onPick: (q: string) => void }) {
  return (
    <div className="flex flex-wrap gap-2 px-3 pb-2" aria-label="Suggested questions" role="group">
      {questions.map((q) => (
        <button
          key={q}
          type="button"
          onClick={() => onPick(q)}
          className="rounded-full border border-line bg-page px-3 py-1.5 text-xs text-ink hover:border-accent hover:text-white"
        >
          {q}
        </button>
      ))}
    </div>
  );
}

/**
 * Input and Send; a blank message is never sent (spec §5 "Chat message: non-empty after trimming").
 * The input empties at once; when `onSend` answers false (the server refused it, or no connection)
 * the text comes back, unless something new was typed meanwhile, so the visitor can send it again.
 */
export function Composer({
  onSend,
  disabled,
  placeholder,
  label,
  expand,
}: {
  onSend: (text: string) => boolean | void | Promise<boolean | void>;
  disabled?: boolean;
  placeholder: string;
  label: string;
  /** Tab expands what was typed (the console's canned replies, decision 347); null leaves Tab to move focus. */
  expand?: (text: string) => string | null;
}) {
  const [text, setText] = useState('');
  return (
    <form
      className="flex gap-2 border-t border-line p-3"
      onSubmit={(e) => {
        e.preventDefault();
        if (!text.trim()) return;
        const sent = text;
        setText('');
        void Promise.resolve(onSend(sent)).then(
          (ok) => ok === false && setText((now) => (now === '' ? sent : now)),
          () => setText((now) => (now === '' ? sent : now)),
        );
      }}
    >
      <input
        value={text}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={
          expand
            ? (e) => {
                if (e.key !== 'Tab' || e.shiftKey) return;
                const next = expand(text);
                if (next === null) return;
                e.preventDefault();
                setText(next);
              }
            : undefined
        }
        required
        maxLength={2000}
        disabled={disabled}
        aria-label={label}
        placeholder={placeholder}
        className="min-w-0 flex-1 rounded-xl border border-line bg-page px-3 py-2 text-sm text-ink placeholder:text-muted
          focus:border-accent focus:outline-none"
      />
      <button
        type="submit"
        disabled={disabled || !text.trim()}
        className="rounded-xl bg-accent-strong px-4 py-2 text-sm font-semibold text-white hover:bg-violet-800 disabled:opacity-60"
      >
        Send
      </button>
    </form>
  );
}
