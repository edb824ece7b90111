import { useCallback, useEffect, useRef, useState } from 'react';
import type { Socket } from 'socket.io-client';
import { type AdminPresence, CHAT_EVENTS, type ChatAck, type ChatErrorEvent, type ChatMessage } from '../../../contract/chat.ts';
import { postChatStartEndpoint } from '../../../contract/endpoints.ts';
import { callEndpoint } from '../../lib/api.ts';
import { openChatSocket } from './chat-socket.ts';

export interface LiveChatOptions {
  /** Start (or resume) the conversation; false keeps everything idle. */
  active: boolean;
  /** The capability to resume, e.g. from localStorage. */
  initialChatId?: string | null;
  onChatId?: (chatId: string | null) => void;
  /** A reply from the admin arrived (for the badge and the sound). */
  onAdminMessage?: (message: ChatMessage) => void;
  /** Create the conversation with the first message instead of at once (the /chat page). */
  startOnFirstMessage?: boolean;
}

export interface LiveChat {
  chatId: string | null;
  messages: ChatMessage[];
  adminOnline: boolean | null;
  /** Why nobody answers live (away, or outside business hours) and when to expect a reply (decision 347). */
  presence: AdminPresence | null;
  isClosed: boolean;
  isPaused: boolean;
  /** Joined and ready to send. */
  isConnected: boolean;
  /** The composer may send: joined, or (startOnFirstMessage) no chat yet and the first message starts it. */
  canSend: boolean;
  error: string | null;
  send(text: string): Promise<boolean>;
  setContactEmail(email: string): Promise<boolean>;
  /** Rates the closed chat 1–5, once (decision 347). */
  rate(score: number, comment?: string): Promise<ChatAck>;
  close(): void;
  restart(): void;
}

const byId = (list: ChatMessage[], m: ChatMessage) => (list.some((x) => x.id === m.id) ? list : [...list, m]);

/** The server's history, plus what arrived live while it was on its way, in time order. */
const withHistory = (history: ChatMessage[], list: ChatMessage[]) =>
  [...history, ...list.filter((m) => !history.some((h) => h.id === m.id))].sort(
    (a, b) => Date.parse(a.createdAt) - Date.parse(b.createdAt),
  );

/** One visitor's live chat over socket.io (spec §4 "Chat session"): start, join, history, send, close. */
export function useLiveChat({
  active,
  initialChatId = null,
  onChatId,
  onAdminMessage,
  startOnFirstMessage = false,
}: LiveChatOptions): LiveChat {
  const [chatId, setChatIdState] = useState<string | null>(initialChatId);
  const [messages, setMessages] = useState<ChatMessage[]>([]);
  const [presence, setPresence] = useState<AdminPresence | null>(null);
  const adminOnline = presence ? presence.online : null;
  const [isClosed, setClosed] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // After Close Chat nothing restarts by itself; Start New Chat does (spec §2 guest page).
  const [isPaused, setPaused] = useState(false);
  const [isConnected, setConnected] = useState(false);
  const socketRef = useRef<Socket | null>(null);
  const starting = useRef(false);
  // The first message of a chat started by it, sent once the socket has joined; `done` answers
  // the composer whether it went (false gives the visitor their text back).
  const firstMessage = useRef<{ text: string; done: (ok: boolean) => void } | null>(null);
  const callbacks = useRef({ onChatId, onAdminMessage });
  callbacks.current = { onChatId, onAdminMessage };

  const setChatId = useCallback((id: string | null) => {
    setChatIdState(id);
    callbacks.current.onChatId?.(id);
  }, []);

  // Spec §2: choosing the human tab starts a chat session if none exists.
  useEffect(() => {
    if (!active || isPaused || chatId || starting.current || startOnFirstMessage) return;
    void startChat();
  }, [active, isPaused, chatId, setChatId, startOnFirstMessage]); // eslint-disable-line react-hooks/exhaustive-deps

  async function startChat(): Promise<boolean> {
    starting.current = true;
    try {
      setChatId((await callEndpoint(postChatStartEndpoint, { body: { userId: 'guest' } })).chatId);
      return true;
    } catch (err) {
      console.log('chat start failed', err);
      setError('The chat is unavailable right now. Please try again later.');
      return false;
    } finally {
      starting.current = false;
    }
  }

  useEffect(() => {
    if (!active || !chatId) return;
    let socket: Socket | null = null;
    let cancelled = false;
    setMessages([]);
    setClosed(false);
    void openChatSocket().then((s) => {
      if (cancelled) {
        s.disconnect();
        return;
      }
      socket = s;
      socketRef.current = s;
      // After every (re)connect: join again and reload the history from the server.
      s.on('connect', () => {
        s.emit(CHAT_EVENTS.joinChat, chatId, (ack: ChatAck) => {
          if (!ack.ok) {
            // The stored id is dead (deleted, or belongs to another account): start afresh.
            firstMessage.current?.done(false);
            firstMessage.current = null;
            setChatId(null);
            return;
          }
          if (ack.state === 'closed') setClosed(true);
          setConnected(true);
          const first = firstMessage.current;
          firstMessage.current = null;
          // The history first, then the chat's first message: the other order let an empty history
          // answered after the message wipe it from the screen.
          s.emit(CHAT_EVENTS.getChatHistory, chatId, (h: ChatAck) => {
            if (h.ok && h.history) setMessages((list) => withHistory(h.history!, list));
            if (first)
              s.emit(CHAT_EVENTS.sendMessage, { chatId, sender: 'user', message: first.text }, (sent: ChatAck) => {
                if (!sent.ok) setError(sent.message);
                else if (sent.message) setMessages((list) => byId(list, sent.message!));
                first.done(sent.ok);
              });
          });
        });
      });
      s.on('disconnect', () => setConnected(false));
      s.on(CHAT_EVENTS.newMessage, (m: ChatMessage) => {
        if (m.chatId !== chatId) return;
        setMessages((list) => byId(list, m));
        if (m.sender === 'admin') callbacks.current.onAdminMessage?.(m);
      });
      s.on(CHAT_EVENTS.adminPresence, (p: AdminPresence) => setPresence(p));
      s.on(CHAT_EVENTS.chatClosed, (p: { chatId: string }) => p.chatId === chatId && setClosed(true));
      s.on(CHAT_EVENTS.chatError, (e: ChatErrorEvent) => setError(e.message));
    });
    return () => {
      cancelled = true;
      setConnected(false);
      socket?.removeAllListeners();
      socket?.disconnect();
      socketRef.current = null;
    };
  }, [active, chatId, setChatId]);

  const request = useCallback(async (event: string, payload: unknown): Promise<ChatAck> => {
    const s = socketRef.current;
    if (!s?.connected)
      return {
        ok: false,
        code: 'OFFLINE',
        message: 'Reconnecting… please try again in a moment.',
      };
    try {
      return (await s.timeout(10_000).emitWithAck(event, payload)) as ChatAck;
    } catch {
      return {
        ok: false,
        code: 'TIMEOUT',
        message: 'The message could not be sent. Please try again.',
      };
    }
  }, []);

  return {
    chatId,
    messages,
    adminOnline,
    presence,
    isClosed,
    isPaused,
    isConnected,
    // After Close Chat the input waits for Start New Chat: it never starts a chat by itself.
    canSend: isConnected || (startOnFirstMessage && active && !isPaused && !chatId && !starting.current),
    error,
    async send(text) {
      if (!text.trim() || isPaused) return false;
      if (!chatId) {
        if (!startOnFirstMessage || starting.current) return false;
        const sent = new Promise<boolean>((done) => {
          firstMessage.current = { text, done };
        });
        if (!(await startChat())) {
          firstMessage.current = null;
          return false;
        }
        return sent;
      }
      // `sender` is the spec's field; the server ignores it and decides from the connection.
      const ack = await request(CHAT_EVENTS.sendMessage, {
        chatId,
        sender: 'user',
        message: text,
      });
      if (!ack.ok) {
        setError(ack.message);
        if (ack.code === 'CONFLICT') setClosed(true);
        return false;
      }
      setError(null);
      if (ack.message) setMessages((list) => byId(list, ack.message!));
      return true;
    },
    async setContactEmail(email) {
      if (!chatId) return false;
      const ack = await request(CHAT_EVENTS.setContactEmail, { chatId, email });
      setError(ack.ok ? null : ack.message);
      return ack.ok;
    },
    async rate(score, comment) {
      if (!chatId) return { ok: false, code: 'NOT_FOUND', message: 'This chat is gone.' };
      return request(CHAT_EVENTS.rateChat, { chatId, score, ...(comment?.trim() ? { comment } : {}) });
    },
    close() {
      if (chatId) socketRef.current?.emit(CHAT_EVENTS.closeChat, chatId);
      setMessages([]);
      setClosed(false);
      setPaused(true);
      setChatId(null);
    },
    restart() {
      setPaused(false);
      setError(null);
      setMessages([]);
      setClosed(false);
      setChatId(null);
    },
  };
}
