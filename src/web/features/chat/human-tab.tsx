import { useState } from 'react';
import { siteConfig } from '../../lib/site-config.ts';
import { useSession } from '../../lib/session.tsx';
import type { LiveChat } from './use-live-chat.ts';
import { Composer, MessageList, QuickQuestions, TypingDots, type Bubble } from './message-list.tsx';
import { QUICK_QUESTIONS } from './quick-questions.ts';

/** The human tab: live chat with the founder, offline e-mail capture, typing indicator. */
export function HumanTab({ chat }: { chat: LiveChat }) {
  const { founder } = siteConfig();
  const session = useSession();
  const bubbles: Bubble[] = chat.messages.map((m) => ({
    key: m.id,
    mine: m.sender === 'user',
    author: m.sender === 'user' ? 'You' : founder,
    text: m.message,
    time: m.createdAt,
  }));
  const last = chat.messages.at(-1);
  // Spec §2: the typing indicator shows while the latest message is not from the admin.
  const isWaiting = chat.adminOnline === true && last !== undefined && last.sender !== 'admin';

  if (chat.isClosed) {
    return (
      <div className="flex min-h-0 flex-1 flex-col" data-testid="human-tab">
        <MessageList label={`Conversation with ${founder}`} bubbles={bubbles} />
        <div className="border-t border-line p-3 text-center text-sm">
          <p className="mb-2 text-muted">This chat has been closed.</p>
          <RateChat chat={chat} />
          <button
            type="button"
            onClick={chat.restart}
            className="rounded-xl bg-accent-strong px-4 py-2 font-semibold text-white hover:bg-violet-800"
          >
            Start a new chat
          </button>
        </div>
      </div>
    );
  }

  return (
    <div className="flex min-h-0 flex-1 flex-col" data-testid="human-tab">
      <MessageList
        label={`Conversation with ${founder}`}
        bubbles={[
          {
            key: 'hello',
            mine: false,
            author: founder,
            // The founder's name (or "Our founder") starts its own sentence: capitalised either way.
            text: `Hi! Ask us anything. ${founder} answers here personally.`,
          },
          ...bubbles,
        ]}
        footer={isWaiting ? <TypingDots label={`Waiting for ${founder} to reply`} /> : undefined}
      />
      {chat.adminOnline === false && <OfflineNotice chat={chat} accountEmail={session.user?.email ?? null} founder={founder} />}
      {chat.messages.length === 0 && chat.chatId && <QuickQuestions questions={QUICK_QUESTIONS} onPick={(q) => void chat.send(q)} />}
      {chat.error && (
        <p role="alert" className="px-3 pb-1 text-xs text-amber-300">
          {chat.error}
        </p>
      )}
      <Composer onSend={chat.send} disabled={!chat.isConnected} placeholder="Type your message…" label={`Your message to ${founder}`} />
    </div>
  );
}

/** Away, or outside business hours: when to expect a reply, in the visitor's own time (decision 347). */
function awayText(chat: LiveChat, founder: string): string {
  const p = chat.presence;
  const at = p?.expectReplyAt ? new Date(p.expectReplyAt) : null;
  const when = at ? at.toLocaleString(undefined, { weekday: 'short', hour: 'numeric', minute: '2-digit' }) : null;
  if (p?.reason === 'away') return when ? `${founder} is away right now. Expect a reply by ${when}.` : `${founder} is away right now.`;
  if (p?.reason === 'closed')
    return when ? `We are outside our chat hours. Expect a reply from ${when}.` : 'We are outside our chat hours.';
  return `${founder} is offline right now.`;
}

function OfflineNotice({ chat, accountEmail, founder }: { chat: LiveChat; accountEmail: string | null; founder: string }) {
  const [saved, setSaved] = useState<string | null>(null);
  const [email, setEmail] = useState('');
  const away = awayText(chat, founder);
  if (accountEmail || saved) {
    return (
      <p className="mx-3 mb-2 rounded-xl border border-line bg-page px-3 py-2 text-xs text-muted" data-testid="offline-notice">
        {away} We will e-mail the reply to {accountEmail ?? saved}.
      </p>
    );
  }
  return (
    <form
      className="mx-3 mb-2 rounded-xl border border-line bg-page px-3 py-2 text-xs"
      data-testid="offline-notice"
      onSubmit={(e) => {
        e.preventDefault();
        void chat.setContactEmail(email).then((ok) => ok && setSaved(email));
      }}
    >
      <p className="mb-2 text-muted">{away} Leave your e-mail and we will send the reply there.</p>
      <div className="flex gap-2">
        <input
          type="email"
          required
          maxLength={100}
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          aria-label="Your e-mail for the reply"
          placeholder="you@example.com"
          className="min-w-0 flex-1 rounded-lg border border-line bg-card px-2 py-1.5 text-ink placeholder:text-muted focus:border-accent
            focus:outline-none"
        />
        <button
          type="submit"
          className="rounded-lg border border-line px-3 py-1.5 font-semibold text-ink hover:border-accent hover:text-white"
        >
          Save
        </button>
      </div>
    </form>
  );
}

/** CSAT once the chat is closed: 1–5 and an optional comment, once (decision 347). */
function RateChat({ chat }: { chat: LiveChat }) {
  const [score, setScore] = useState(0);
  const [comment, setComment] = useState('');
  const [state, setState] = useState<'idle' | 'sending' | 'done'>('idle');
  const [error, setError] = useState<string | null>(null);
  if (state === 'done')
    return (
      <p className="mb-2 text-muted" role="status">
        Thank you for your rating!
      </p>
    );
  return (
    <form
      className="mb-3 flex flex-col items-center gap-2"
      data-testid="rate-chat"
      onSubmit={(e) => {
        e.preventDefault();
        if (!score) return;
        setState('sending');
        void chat.rate(score, comment).then((ack) => {
          if (ack.ok || ack.code === 'CONFLICT') setState('done');
          else {
            setError(ack.message);
            setState('idle');
          }
        });
      }}
    >
      <fieldset className="flex gap-1">
        <legend className="mb-1 w-full text-center text-ink">How was this chat?</legend>
        {[1, 2, 3, 4, 5].map((n) => (
          <button
            key={n}
            type="button"
            aria-pressed={score === n}
            aria-label={`${n} out of 5`}
            onClick={() => setScore(n)}
            className={`size-9 rounded-lg border text-sm font-semibold ${
              score >= n ? 'border-accent bg-accent-strong text-white' : 'border-line text-ink hover:border-accent'
            }`}
          >
            {n}
          </button>
        ))}
      </fieldset>
      <input
        value={comment}
        onChange={(e) => setComment(e.target.value)}
        maxLength={1000}
        aria-label="A comment (optional)"
        placeholder="A comment (optional)"
        className="w-full rounded-lg border border-line bg-page px-2 py-1.5 text-ink placeholder:text-muted focus:border-accent
          focus:outline-none"
      />
      {error && (
        <p role="alert" className="text-xs text-amber-300">
          {error}
        </p>
      )}
      <button
        type="submit"
        disabled={!score || state === 'sending'}
        className="rounded-lg border border-line px-3 py-1.5 font-semibold text-ink hover:border-accent disabled:opacity-60"
      >
        Send rating
      </button>
    </form>
  );
}
