import { useCallback, useEffect, useId, useRef, useState } from 'react';
import type { Socket } from 'socket.io-client';
import type { OrderFile } from '../../../contract/order-files.ts';
import {
  ORDER_MESSAGE_FILES_MAX,
  ORDER_MESSAGE_MAX,
  ORDER_SOCKET_EVENTS,
  type OrderMessage,
  postOrdersMessagesRead,
  type OrderMessageEvent,
  type OrderSocketAck,
} from '../../../contract/order-messages.ts';
import { Button } from '../../components/ui/button.tsx';
import { CharCount, inputClass } from '../../components/ui/text-field.tsx';
import { errorMessage } from '../../lib/api.ts';
import { call } from '../../lib/call.ts';
import { downloadOperation } from '../../lib/call-file.ts';
import { useOperation, useWrite } from '../../lib/use-operation.ts';
import { getOrderGetAllOrdersUser } from '../../../contract/orders.ts';
import { openChatSocket } from '../chat/index.ts';
import { FileThumb } from './file-thumb.tsx';
import { useOrderFiles } from './order-files.ts';
import { PanelCard, PanelError, PanelLoading, formatShortWhen } from './panel-ui.tsx';
import { ORDER_FILE, messageSend, messagesRead, type Workspace } from './workspace-api.ts';

// The order's thread between the customer and the agency. Read over HTTP (so it
// works without the socket), live over the site's socket.io connection: the panel joins the
// order's room (`joinOrder`) and adds every `orderMessage` it hears. A message that arrives while
// the thread is open is marked read, so no e-mail notice goes out for what was seen here.

export default function MessagesPanel({ ws }: { ws: Workspace }) {
  const read = messagesRead(ws);
  const { data, error, reload, set } = useOperation(read.op, read.input);
  const messages = data?.messages ?? null;
  // Pages before the newest one, read on demand (the thread is answered in pages: docs/decisions/341-one-rule-per-derived-value.md).
  const [earlier, setEarlier] = useState<{ messages: OrderMessage[]; cursor: string | null } | null>(null);
  const [earlierError, setEarlierError] = useState<string | null>(null);
  const cursor = earlier ? earlier.cursor : (data?.earlierCursor ?? null);
  const showEarlier = async () => {
    if (!cursor) return;
    setEarlierError(null);
    try {
      const page = messagesRead(ws, cursor);
      const answer = await call(page.op, page.input);
      setEarlier((was) => ({ messages: [...answer.messages, ...(was?.messages ?? [])], cursor: answer.earlierCursor }));
    } catch (err) {
      setEarlierError(errorMessage(err));
    }
  };
  const shown = messages && [...(earlier?.messages.filter((m) => !messages.some((x) => x.id === m.id)) ?? []), ...messages];
  const [live, setLive] = useState(false);
  const files = useOrderFiles(ws);
  const list = useRef<HTMLOListElement>(null);
  // Marking the thread read changes My Orders' unread count.
  const { mutate: markRead } = useWrite(postOrdersMessagesRead, { invalidates: [getOrderGetAllOrdersUser] });
  const add = useCallback(
    (m: OrderMessage) => set((all) => (all && !all.messages.some((x) => x.id === m.id) ? { ...all, messages: [...all.messages, m] } : all)),
    [set],
  );

  // Live: join the order's room; on a reconnect join again and read what was missed.
  useEffect(() => {
    let socket: Socket | null = null;
    let closed = false;
    const join = () =>
      socket?.emit(ORDER_SOCKET_EVENTS.joinOrder, { orderId: ws.orderId }, (ack: OrderSocketAck) => {
        setLive(ack.ok);
      });
    void openChatSocket().then((s) => {
      if (closed) return void s.disconnect();
      socket = s;
      s.on('connect', () => {
        join();
        void reload();
      });
      s.on('disconnect', () => setLive(false));
      s.on(ORDER_SOCKET_EVENTS.orderMessage, (event: OrderMessageEvent) => {
        if (event.orderId !== ws.orderId) return;
        const { orderId: _order, ...message } = event;
        add(message);
        if (message.sender !== ws.side) {
          // Seen here: the customer marks it read; the founder's read marker moves with a GET.
          if (ws.side === 'customer') markRead({ params: { orderId: ws.orderId } });
          else void reload();
          // New files may come with it.
          if (message.fileIds.length) void files.reload();
        }
      });
    });
    return () => {
      closed = true;
      socket?.emit(ORDER_SOCKET_EVENTS.leaveOrder, { orderId: ws.orderId });
      socket?.removeAllListeners();
      socket?.disconnect();
    };
    // files.reload and `read` (made from ws) change with ws alone.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [ws, add, reload]);

  // The newest message in view.
  useEffect(() => {
    const el = list.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, [messages?.length]);

  const byId = new Map((files.data ?? []).map((f) => [f.id, f]));
  return (
    <PanelCard className="flex flex-col gap-4">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 className="text-xl font-semibold text-white">Messages</h2>
        <span className="text-xs text-muted" data-testid="messages-live">
          {live ? 'Live' : 'Connecting…'}
        </span>
      </div>
      {error && <PanelError message={error} />}
      {cursor && messages && (
        <Button type="button" variant="secondary" className="self-center" onClick={() => void showEarlier()}>
          Show earlier messages
        </Button>
      )}
      {earlierError && <PanelError message={earlierError} />}
      {!shown ? (
        !error && <PanelLoading label="Loading the messages" />
      ) : (
        <ol
          ref={list}
          className="flex max-h-[60vh] min-h-24 flex-col gap-3 overflow-y-auto rounded-xl border border-line bg-page/40 p-3"
          aria-label="Messages of the order"
          aria-live="polite"
          tabIndex={0}
        >
          {shown.length === 0 && (
            <li className="text-sm text-muted">
              {ws.side === 'customer' ? 'Questions about your website? Write to us here.' : 'No messages yet.'}
            </li>
          )}
          {shown.map((m) => (
            <Message key={m.id} ws={ws} message={m} files={byId} />
          ))}
        </ol>
      )}
      <Compose ws={ws} files={files.data ?? []} onSent={add} />
    </PanelCard>
  );
}

function Message({ ws, message, files }: { ws: Workspace; message: OrderMessage; files: Map<string, OrderFile> }) {
  const mine = message.sender === ws.side;
  // Who wrote it (docs/decisions/271-message-author-names.md): "You" only for the reader's own
  // message; another staff member's says their name, e.g. "Ravi · Webcraft Studio".
  const who = message.mine ? 'You' : (message.authorName ?? (message.sender === 'agency' ? 'The agency' : 'The customer'));
  return (
    <li
      className={`flex max-w-[85%] min-w-0 flex-col sm:max-w-[70%] gap-1 ${mine ? 'self-end items-end' : 'self-start items-start'}`}
      data-testid="order-message"
      data-sender={message.sender}
    >
      <p className="text-xs text-muted">
        {who} · {formatShortWhen(message.createdAt)}
      </p>
      <p
        className={`max-w-full whitespace-pre-wrap wrap-anywhere rounded-2xl px-4 py-2 text-sm
          ${mine ? 'bg-accent-strong text-white' : 'border border-line bg-field text-ink'}`}
      >
        {message.text}
      </p>
      {message.fileIds.map((id) => {
        const file = files.get(id);
        return file ? <Attachment key={id} ws={ws} file={file} /> : null;
      })}
    </li>
  );
}

function Attachment({ ws, file }: { ws: Workspace; file: OrderFile }) {
  const [error, setError] = useState<string | null>(null);
  return (
    <span className="flex max-w-full min-w-0 items-center gap-2">
      <FileThumb ws={ws} file={file} className="h-10 w-10" />
      <button
        type="button"
        className="min-h-11 min-w-0 text-left text-sm wrap-anywhere text-accent-soft underline"
        onClick={async () =>
          setError(await downloadOperation(ORDER_FILE[ws.side], { params: { orderId: ws.orderId, fileId: file.id } }, file.name))
        }
      >
        {file.name}
      </button>
      {error && <span className="text-xs text-danger">{error}</span>}
    </span>
  );
}

function Compose({ ws, files, onSent }: { ws: Workspace; files: OrderFile[]; onSent(m: OrderMessage): void }) {
  const [text, setText] = useState('');
  const [attached, setAttached] = useState<string[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const id = useId();

  const send = async (e?: React.FormEvent) => {
    e?.preventDefault();
    // Ctrl+Enter while sending, or a double click, sends once (docs/decisions/210-idempotency-key.md).
    if (busy) return;
    if (!text.trim()) return setError('Write a message.');
    setBusy(true);
    setError(null);
    try {
      const request = messageSend(ws, { text, ...(attached.length ? { fileIds: attached } : {}) });
      const { message } = await call(request.op, request.input);
      onSent(message);
      setText('');
      setAttached([]);
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form onSubmit={send} className="flex flex-col gap-2" aria-label="Write a message" data-primary-action>
      <label htmlFor={id} className="text-sm font-medium text-ink">
        Message
      </label>
      <textarea
        id={id}
        rows={3}
        className={`${inputClass} resize-y`}
        value={text}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) void send();
        }}
        aria-describedby={`${id}-hint`}
      />
      <p id={`${id}-hint`} className="text-xs text-muted">
        Ctrl+Enter sends. Attach files uploaded in Files.
      </p>
      <CharCount length={text.length} max={ORDER_MESSAGE_MAX} />
      {files.length > 0 && (
        <details className="rounded-xl border border-line">
          <summary className="flex min-h-11 cursor-pointer items-center px-3 text-sm text-ink">
            Attach files{attached.length ? ` (${attached.length})` : ''}
          </summary>
          <fieldset className="flex flex-col gap-1 border-t border-line p-2">
            <legend className="sr-only">Files to attach</legend>
            {files.map((f) => (
              <label key={f.id} className="flex min-h-11 cursor-pointer items-center gap-3 rounded-lg px-2 text-sm text-ink">
                <input
                  type="checkbox"
                  className="h-4 w-4 shrink-0 accent-accent"
                  checked={attached.includes(f.id)}
                  disabled={!attached.includes(f.id) && attached.length >= ORDER_MESSAGE_FILES_MAX}
                  onChange={(e) => setAttached((a) => (e.target.checked ? [...a, f.id] : a.filter((x) => x !== f.id)))}
                />
                <span className="min-w-0 wrap-anywhere">{f.name}</span>
              </label>
            ))}
          </fieldset>
        </details>
      )}
      {error && <PanelError message={error} />}
      <Button type="submit" disabled={busy || text.length > ORDER_MESSAGE_MAX} className="sm:self-start">
        {busy ? 'Sending…' : 'Send'}
      </Button>
    </form>
  );
}
