import { useLiveChat } from '../features/chat/use-live-chat.ts';
import { Composer, MessageList } from '../features/chat/message-list.tsx';

// Spec §2 "Guest chat test page": a message list, an input, Send, Close Chat and Start New Chat.
export default function GuestChatPage() {
  // The conversation starts with the first message: a visit alone leaves no empty chat.
  const chat = useLiveChat({ active: true, startOnFirstMessage: true });
  return (
    <section className="mx-auto flex min-h-screen max-w-2xl flex-col gap-4 px-4 py-10">
      <h1 className="text-3xl font-bold text-white">Guest chat</h1>
      <p className="text-sm text-muted" data-testid="guest-chat-status">
        {chat.isConnected
          ? 'Connected to a new chat. Messages go to our team.'
          : chat.isPaused
            ? 'Chat closed.'
            : chat.chatId
              ? 'Connecting…'
              : 'Type a message to start a chat with our team.'}
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
      <div className="rounded-2xl border border-line bg-card [&>form]:border-t-0">
        <Composer onSend={chat.send} disabled={!chat.canSend} placeholder="Type a message…" label="Message" />
      </div>
      <div className="flex gap-3">
        <button
          type="button"
          onClick={chat.close}
          disabled={!chat.isConnected}
          className="rounded-xl border border-line px-4 py-2 text-sm font-semibold text-ink hover:border-accent disabled:opacity-60"
        >
          Close Chat
        </button>
        <button
          type="button"
          onClick={chat.restart}
          className="rounded-xl border border-line px-4 py-2 text-sm font-semibold text-ink hover:border-accent"
        >
          Start New Chat
        </button>
      </div>
    </section>
  );
}
