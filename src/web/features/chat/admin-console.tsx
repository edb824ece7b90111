import { useEffect, useRef } from 'react';
import { Link, useSearchParams } from 'react-router';
import type { ChatSummary } from '../../../contract/chat.ts';
import { Composer, MessageList } from './message-list.tsx';
import { useAdminChat } from './use-admin-chat.ts';
import { isDeletedPerson } from '../../components/back-office/person.tsx';
import { DELETED_CUSTOMER_NAME } from '../../../domain/deleted-account.ts';
import { isOwner } from '../../../domain/roles.ts';
import { useSession } from '../../lib/session.tsx';
import { AvailabilitySwitch, CannedRepliesPanel, FirstResponse, useCannedReplies } from './console-tools.tsx';
import { formatWhenShort } from '../../../domain/when.ts';

// A deleted account's chat shows "Deleted customer", never its placeholder address.
const nameOf = (c: ChatSummary) =>
  isDeletedPerson(c.email) ? DELETED_CUSTOMER_NAME : (c.name ?? c.email ?? `Visitor ${c.chatId.slice(0, 6)}`);
const when = (iso: string) => formatWhenShort(iso);

/** Spec §2 "Admin chat console": active chats as buttons, history on select, send only non-blank. */
export function AdminConsole() {
  const chat = useAdminChat(true);
  const current = chat.chats.find((c) => c.chatId === chat.selected);
  const session = useSession();
  const canned = useCannedReplies();
  // `?chat=<id>`: a push notification's link opens that chat once it is listed (docs/decisions/343-web-push.md).
  const [params] = useSearchParams();
  const wanted = params.get('chat');
  const opened = useRef(false);
  const { select } = chat;
  const listed = wanted !== null && chat.chats.some((c) => c.chatId === wanted);
  useEffect(() => {
    if (!wanted || !listed || opened.current) return;
    opened.current = true;
    select(wanted);
  }, [wanted, listed, select]);

  if (chat.status === 'forbidden') {
    return (
      <section className="mx-auto max-w-xl px-4 py-24 text-center">
        <h1 className="text-3xl font-bold text-white">Admins only</h1>
        <p className="mt-3 text-muted">The chat console is for the agency's team. Your account does not have access to it.</p>
      </section>
    );
  }

  return (
    <section className="mx-auto flex min-h-screen max-w-6xl flex-col gap-4 px-4 py-8">
      <header className="flex flex-wrap items-center justify-between gap-3">
        <div className="flex flex-col gap-1">
          <Link to="/admin" className="text-sm font-semibold text-violet-300 underline underline-offset-2 hover:text-white">
            ← Back office
          </Link>
          <h1 className="text-2xl font-bold text-white">Chat console</h1>
        </div>
        <div className="flex flex-wrap items-center gap-4">
          <span className="text-sm text-muted" role="status">
            {chat.status === 'ready'
              ? `${chat.chats.length} active ${chat.chats.length === 1 ? 'chat' : 'chats'}`
              : chat.status === 'offline'
                ? 'Reconnecting…'
                : 'Connecting…'}
          </span>
          <AvailabilitySwitch />
        </div>
      </header>
      <div className="grid min-h-0 flex-1 gap-4 md:grid-cols-[18rem_1fr]">
        <nav aria-label="Active chats" className="flex max-h-[70vh] flex-col gap-2 overflow-y-auto">
          {chat.chats.length === 0 && chat.status === 'ready' && (
            <p className="text-sm text-muted">No active chats. New ones appear here live.</p>
          )}
          {chat.chats.map((c) => (
            <button
              key={c.chatId}
              type="button"
              onClick={() => chat.select(c.chatId)}
              aria-current={c.chatId === chat.selected ? 'true' : undefined}
              data-testid="admin-chat-item"
              className={`rounded-xl border px-3 py-2 text-left
              ${c.chatId === chat.selected ? 'border-accent bg-violet-950/50' : 'border-line bg-card hover:border-accent'}`}
            >
              <span className="flex items-center justify-between gap-2">
                {/* Cut to one line in the list; the full text is the title (and the chat itself). */}
                <span
                  className={`truncate text-sm font-semibold ${isDeletedPerson(c.email) ? 'text-muted italic' : 'text-white'}`}
                  title={nameOf(c)}
                >
                  {nameOf(c)}
                </span>
                {c.unread > 0 && (
                  <span className="rounded-full bg-accent-strong px-2 py-0.5 text-xs font-bold text-white" data-testid="admin-chat-unread">
                    {c.unread}
                    <span className="sr-only"> unread</span>
                  </span>
                )}
              </span>
              <span className="block truncate text-xs text-muted" title={c.lastMessage ?? undefined}>
                {c.lastMessage ?? 'No messages yet'}
              </span>
              <span className="block text-[11px] text-muted">{when(c.lastMessageAt ?? c.createdAt)}</span>
            </button>
          ))}
        </nav>
        <div className="flex h-[70vh] min-h-0 flex-col rounded-2xl border border-line bg-card">
          {current ? (
            <>
              <div className="flex items-center justify-between border-b border-line px-4 py-3">
                <div>
                  <h2 className="font-semibold text-white">{nameOf(current)}</h2>
                  {current.email && current.name && !isDeletedPerson(current.email) && (
                    <p className="text-xs text-muted">{current.email}</p>
                  )}
                  <FirstResponse messages={chat.messages} fallback={current.firstResponseSeconds} />
                </div>
                <button
                  type="button"
                  onClick={chat.close}
                  className="rounded-lg border border-line px-3 py-1.5 text-sm font-semibold text-ink hover:border-red-400 hover:text-white"
                >
                  Close chat
                </button>
              </div>
              <MessageList
                label={`Conversation with ${nameOf(current)}`}
                bubbles={chat.messages.map((m) => ({
                  key: m.id,
                  mine: m.sender === 'admin',
                  author: m.sender === 'admin' ? 'You' : nameOf(current),
                  text: m.message,
                  time: m.createdAt,
                }))}
              />
              {chat.error && (
                <p role="alert" className="px-4 pb-1 text-xs text-amber-300">
                  {chat.error}
                </p>
              )}
              <Composer onSend={chat.send} placeholder="Write a reply… (/shortcut + Tab)" label="Reply" expand={canned.expand} />
            </>
          ) : (
            <p className="m-auto text-sm text-muted">Select a chat to read and reply.</p>
          )}
        </div>
      </div>
      <CannedRepliesPanel canned={canned} canEdit={isOwner(session.user?.role)} />
    </section>
  );
}
