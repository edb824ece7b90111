import { useCallback, useEffect, useRef, useState } from 'react';
import type { Socket } from 'socket.io-client';
import { CHAT_EVENTS, type ChatAck, type ChatMessage, type ChatSummary } from '../../../contract/chat.ts';
import { openChatSocket } from './chat-socket.ts';
import { STEP_UP_REQUIRED, signalStepUpRequired } from '../../lib/step-up-signal.ts';

export type ConsoleStatus = 'connecting' | 'ready' | 'forbidden' | 'offline';

const byActivity = (a: ChatSummary, b: ChatSummary) => (b.lastMessageAt ?? b.createdAt).localeCompare(a.lastMessageAt ?? a.createdAt);

/** The admin console's live state: the active chats, the selected one and its messages. */
export function useAdminChat(enabled: boolean) {
  const [status, setStatus] = useState<ConsoleStatus>('connecting');
  const [chats, setChats] = useState<ChatSummary[]>([]);
  const [selected, setSelected] = useState<string | null>(null);
  const [messages, setMessages] = useState<ChatMessage[]>([]);
  const [error, setError] = useState<string | null>(null);
  const socketRef = useRef<Socket | null>(null);
  const selectedRef = useRef<string | null>(null);
  selectedRef.current = selected;

  const loadChat = useCallback((s: Socket, chatId: string) => {
    s.emit(CHAT_EVENTS.joinChat, chatId, () => {
      s.emit(CHAT_EVENTS.getChatHistory, chatId, (ack: ChatAck) => {
        if (ack.ok && ack.history && selectedRef.current === chatId) setMessages(ack.history);
      });
    });
  }, []);

  useEffect(() => {
    if (!enabled) return;
    let socket: Socket | null = null;
    let cancelled = false;
    void openChatSocket().then((s) => {
      if (cancelled) return void s.disconnect();
      socket = s;
      socketRef.current = s;
      s.on('connect', () => {
        s.emit(CHAT_EVENTS.getActiveChats, (ack: ChatAck) => {
          if (!ack.ok) {
            // An unconfirmed back-office session: the page's gate asks for the passkey (decision 194).
            if (ack.code === STEP_UP_REQUIRED) signalStepUpRequired();
            return setStatus(ack.code === 'FORBIDDEN' ? 'forbidden' : 'offline');
          }
          setStatus('ready');
          setChats(ack.summaries ?? []);
          if (selectedRef.current) loadChat(s, selectedRef.current);
        });
      });
      s.on('disconnect', () => setStatus((st) => (st === 'forbidden' ? st : 'offline')));
      s.on(CHAT_EVENTS.chatSummary, (summary: ChatSummary) => {
        setChats((list) => {
          const rest = list.filter((c) => c.chatId !== summary.chatId);
          // A live update carries no first-response time: the one the console has stays (decision 347).
          if (summary.firstResponseSeconds === undefined)
            summary = { ...summary, firstResponseSeconds: list.find((c) => c.chatId === summary.chatId)?.firstResponseSeconds };
          // The open chat is being read: its unread count stays at zero on this screen.
          const shown = summary.chatId === selectedRef.current ? { ...summary, unread: 0 } : summary;
          return summary.state === 'closed' ? rest : [shown, ...rest].sort(byActivity);
        });
      });
      s.on(CHAT_EVENTS.chatClosed, ({ chatId }: { chatId: string }) => {
        setChats((list) => list.filter((c) => c.chatId !== chatId));
        if (selectedRef.current === chatId) {
          setSelected(null);
          setMessages([]);
        }
      });
      s.on(CHAT_EVENTS.newMessage, (m: ChatMessage) => {
        if (m.chatId === selectedRef.current) setMessages((list) => (list.some((x) => x.id === m.id) ? list : [...list, m]));
      });
    });
    return () => {
      cancelled = true;
      socket?.removeAllListeners();
      socket?.disconnect();
      socketRef.current = null;
    };
  }, [enabled, loadChat]);

  return {
    status,
    chats,
    selected,
    messages,
    error,
    select(chatId: string) {
      setSelected(chatId);
      setMessages([]);
      setError(null);
      setChats((list) => list.map((c) => (c.chatId === chatId ? { ...c, unread: 0 } : c)));
      if (socketRef.current) loadChat(socketRef.current, chatId);
    },
    async send(text: string) {
      const s = socketRef.current;
      if (!s || !selected || !text.trim()) return false;
      const ack = (await s
        .timeout(10_000)
        .emitWithAck(CHAT_EVENTS.adminSendMessage, {
          chatId: selected,
          message: text,
        })
        .catch(() => ({
          ok: false,
          code: 'TIMEOUT',
          message: 'Not sent. Please try again.',
        }))) as ChatAck;
      if (!ack.ok && ack.code === STEP_UP_REQUIRED) signalStepUpRequired();
      setError(ack.ok ? null : ack.message);
      if (ack.ok && ack.message) setMessages((list) => (list.some((x) => x.id === ack.message!.id) ? list : [...list, ack.message!]));
      return ack.ok;
    },
    close() {
      if (selected) socketRef.current?.emit(CHAT_EVENTS.closeChat, selected);
    },
  };
}
