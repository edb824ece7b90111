import { useState } from 'react';
import { useLiveChat } from '../features/chat/use-live-chat.ts';
import { MessageList } from '../features/chat/message-list.tsx';

// Spec §2 "Guest chat test page": a message list, an input, Send, Close Chat and Start New Chat.
export default function GuestChatPage() {
  const chat = useLiveChat({ active: true });
  const [text, setText] = useState('');
  return (
    <section className="mx-auto flex min-h-screen max-w-2xl flex-col gap-4 px-4 py-10">
      <h1 className="text-3xl font-bold text-white">Guest chat</h1>
      <p className="text-sm text-muted" data-testid="guest-chat-status">
        {chat.isConnected ? 'Connected to a new chat. Messages go to our team.' : chat.isPaused ? 'Chat closed.' : 'Starting a chat…'}
      </p>
      <div className="flex h-[420px] flex-col rounded-2xl border border-line bg-card">
        <MessageList
          label="Guest chat messages"
          bubbles={chat.messages.map((m) => ({
            key: m.id,
            mine: m.sender === 'user',
            author: m.sender === 'user' ? 'You' : 'Admin',
            text: m.message,
            time: m.createdAt,
          }))}
        />
      </div>
      {chat.error && (
        <p role="alert" className="text-sm text-amber-300">
          {chat.error}
        </p>
      )}
      <form
        className="flex gap-2"
        onSubmit={(e) => {
          e.preventDefault();
          if (!text.trim()) return;
          void chat.send(text).then((ok) => ok && setText(''));
        }}
      >
        <input
          required
          maxLength={2000}
          value={text}
          onChange={(e) => setText(e.target.value)}
          aria-label="Message"
          placeholder="Type a message…"
          disabled={!chat.isConnected}
          className="min-w-0 flex-1 rounded-xl border border-line bg-page px-3 py-2 text-ink placeholder:text-muted focus:border-accent focus:outline-none"
        />
        <button
          type="submit"
          disabled={!chat.isConnected}
          className="rounded-xl bg-accent-strong px-5 py-2 font-semibold text-white hover:bg-violet-800 disabled:opacity-60"
        >
          Send
        </button>
      </form>
      <div className="flex gap-3">
        <button
          type="button"
          onClick={chat.close}
          disabled={!chat.isConnected}
          className="rounded-xl border border-line px-4 py-2 text-sm font-semibold text-ink hover:border-accent disabled:opacity-60"
        >
          Close Chat
        </button>
        <button type="button" onClick={chat.restart} className="rounded-xl border border-line px-4 py-2 text-sm font-semibold text-ink hover:border-accent">
          Start New Chat
        </button>
      </div>
    </section>
  );
}
