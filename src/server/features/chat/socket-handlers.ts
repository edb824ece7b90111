import type { DefaultEventsMap, Socket } from 'socket.io';
import { z } from 'zod';
import {
  adminSendMessagePayload,
  type AdminPresence,
  CHAT_EVENTS,
  type ChatAck,
  type ChatMessage,
  chatSenderOf,
  type ChatSide,
  chatSideOf,
  joinChatPayload,
  rateChatPayload,
  sendMessagePayload,
  setContactEmailPayload,
} from '../../../contract/chat.ts';
import type { AppDeps } from '../../deps.ts';
import { AppError, badRequest, conflict, forbidden, tooManyRequests, unauthorized } from '../../lib/app-error.ts';
import { findSession } from '../auth/sessions.ts';
import { assertBackOffice, stepUpError } from '../auth/back-office-access.ts';
import type { ChatServer, SocketData } from '../../plugins/socket.ts';
import {
  activeSummaries,
  chatHistory,
  closeConversation,
  type Conversation,
  findAccessible,
  markRead,
  setContactEmail,
  summaryOf,
  type Viewer,
} from './conversations.ts';
import { ADMINS, createAdminPresence } from './presence.ts';
import { chatRoom } from './rooms.ts';
import type { AddressLimit } from './address-limit.ts';
import { createRateBucket, type RateBucket } from './rate-bucket.ts';
import { emailOwnerNewChat, emailVisitorReply } from './notify.ts';
import { createMessageWriter } from './message-writer.ts';
import { AVAILABILITY_CHANGED, createAvailability } from './availability.ts';
import { rateClosedChat } from './chat-ratings.ts';

const room = chatRoom;
type ChatSocket = Socket<DefaultEventsMap, DefaultEventsMap, DefaultEventsMap, SocketData>;

const viewerOf = (socket: { data: SocketData }): Viewer => ({
  userId: socket.data.auth?.user.id ?? null,
  isAgency: socket.data.role === 'agency',
});

/** The chat's socket events (spec §7): every payload validated, every chat checked. */
export function registerChatSocket(io: ChatServer, deps: AppDeps, messageLimit: AddressLimit) {
  const { database, log } = deps;
  // Several instances share events through an adapter (plugins/socket.ts) exactly in these cases.
  const clustered = Boolean(deps.config.REDIS_URL || database.pool);
  const presence = createAdminPresence(io, clustered, log);
  // Messages are stored in batches, one in flight per lane (decision 110); each is acknowledged and
  // broadcast only once its batch has committed.
  const messageWriter = createMessageWriter(database);
  const adminOnline = () => presence.online();
  // The console's "available" / "away" switch and the business hours (decision 347): away or
  // closed, visitors get the offline mode even while an agency socket is connected.
  const availability = createAvailability(deps);
  const presencePayload = async (): Promise<AdminPresence> => {
    const [online, status] = await Promise.all([adminOnline(), availability.status()]);
    const reason = !status.available ? 'away' : !status.withinHours ? 'closed' : undefined;
    return { online: online && !reason, ...(reason ? { reason, expectReplyAt: status.expectReplyAt } : {}) };
  };
  /** Whether a visitor's message is answered live now (else the founder hears of the chat by e-mail). */
  const answering = async (online: boolean) => online && (await availability.status()).expectReplyAt === null;

  // Summaries are for the console: nothing to compute or publish while no admin is online.
  const emitSummary = async (chatId: string) => {
    if (!(await adminOnline())) return;
    const summary = await summaryOf(database, chatId);
    // A chat without a message is not in the console's list: nothing to update.
    if (summary?.lastMessageAt) io.to(ADMINS).emit(CHAT_EVENTS.chatSummary, summary);
  };

  // A dead peer makes fetchSockets time out; then we act as if nobody were there (mail is sent).
  const someoneIn = async (target: string, predicate: (data: SocketData) => boolean) => {
    // Sockets on this instance answer without asking the others.
    const here = io.sockets.adapter.rooms.get(target) ?? new Set<string>();
    if (
      [...here].some((id) => {
        const s = io.sockets.sockets.get(id);
        return s !== undefined && predicate(s.data);
      })
    )
      return true;
    if (!clustered) return false;
    try {
      return (await io.in(target).fetchSockets()).some((s) => predicate(s.data));
    } catch (err) {
      log.warn({ err: (err as Error).message }, 'chat: presence lookup failed');
      return false;
    }
  };
  const broadcastPresence = () =>
    presencePayload()
      .then((p) => io.except(ADMINS).emit(CHAT_EVENTS.adminPresence, p))
      .catch((err) => log.warn({ err: (err as Error).message }, 'chat: presence broadcast failed'));
  // Every instance hears of the switch through the bus and tells its own visitors.
  deps.bus.subscribe(AVAILABILITY_CHANGED, () => void broadcastPresence());

  io.on('connection', (rawSocket) => {
    const socket: ChatSocket = rawSocket;
    const messages = createRateBucket(8, 1);
    const lookups = createRateBucket(30, 3);
    if (socket.data.role !== 'agency') {
      // The widget's human tab says at once whether someone is there (offline mode).
      void presencePayload().then((p) => socket.emit(CHAT_EVENTS.adminPresence, p));
    } else {
      void socket.join(ADMINS);
      presence.changed(1);
      void broadcastPresence();
      socket.on('disconnect', (reason) => {
        presence.changed(-1);
        // On shutdown the adapter is closing: nothing to tell, and nowhere to publish it.
        if (reason !== 'server namespace disconnect' && reason !== 'server shutting down') void broadcastPresence();
      });
    }
    // Chats this visitor socket may use, checked once (ownership never changes; a closed chat is
    // refused by storeMessage itself). Admin sockets always read the row: its contact e-mail may change.
    // The cached row's state goes stale (a close, the founder's first reply, another socket or
    // instance): whatever reports the state (joinChat) asks for a `fresh` read.
    const known = new Map<string, Conversation>();
    const access = async (chatId: string, fresh = false) => {
      const cached = socket.data.role === 'agency' || fresh ? undefined : known.get(chatId);
      if (cached) return cached;
      const conversation = await findAccessible(database, chatId, viewerOf(socket));
      if (socket.data.role !== 'agency') {
        if (known.size >= 50) known.clear();
        known.set(chatId, conversation);
      }
      return conversation;
    };

    /**
     * Back-office rights are re-checked on every admin event (and every event of an admin socket):
     * the session read afresh through the session cache, its role (owner or staff: the console is
     * staff work, decision 191) and its step-up window (decision 190). A revoked session, a removed
     * staff member or a lapsed confirmation stops at once; such a socket is then ended, so it leaves
     * the console's room.
     */
    let backOfficeEnded = false;
    const requireBackOffice = async () => {
      const token = (socket.handshake.auth as { token?: unknown } | undefined)?.token;
      const auth = typeof token === 'string' && token ? await findSession(deps.db, token) : null;
      try {
        if (!auth || auth.sessionId !== socket.data.auth?.sessionId) throw forbidden('Admins only.');
        const admin = assertBackOffice(deps.config, auth);
        // Confirmed only after this socket connected unconfirmed: a new connection opens the console.
        if (socket.data.role !== 'agency') throw stepUpError();
        return admin;
      } catch (err) {
        if (socket.data.role === 'agency') backOfficeEnded = true;
        throw err;
      }
    };

    /**
     * A customer's session is checked again on every event, through the session cache (a query per
     * token at most every SESSION_CACHE_MS), so a session that expired, or was revoked while the
     * broadcast that disconnects its sockets was lost, stops within seconds (decision 089).
     */
    let sessionEnded = false;
    const requireLiveSession = async () => {
      const token = (socket.handshake.auth as { token?: unknown } | undefined)?.token;
      const auth = typeof token === 'string' ? await findSession(deps.db, token) : null;
      if (auth && auth.sessionId === socket.data.auth?.sessionId) return;
      sessionEnded = true;
      throw unauthorized('Your session has ended. Please sign in again.');
    };

    function on<S extends z.ZodType>(
      event: string,
      schema: S,
      bucket: RateBucket,
      handler: (payload: z.output<S>) => Promise<Partial<Extract<ChatAck, { ok: true }>> | void>,
    ) {
      socket.on(event, async (raw: unknown, maybeAck?: unknown) => {
        const ack =
          typeof maybeAck === 'function'
            ? (maybeAck as (a: ChatAck) => void)
            : typeof raw === 'function'
              ? (raw as (a: ChatAck) => void)
              : undefined;
        try {
          if (!bucket.take()) throw tooManyRequests('You are sending messages too fast. Please wait a moment.');
          if (socket.data.role === 'customer') await requireLiveSession();
          else if (socket.data.role === 'agency') await requireBackOffice();
          const parsed = schema.safeParse(typeof raw === 'function' ? undefined : raw);
          if (!parsed.success) throw badRequest(parsed.error.issues[0]?.message ?? 'Invalid request.');
          const result = await handler(parsed.data);
          ack?.({ ok: true, ...(result ?? {}) });
        } catch (err) {
          const e = err instanceof AppError ? err : new AppError('INTERNAL', 'Something went wrong. Please try again.');
          if (!(err instanceof AppError)) log.error({ err, event }, 'chat event failed');
          if (ack) ack({ ok: false, code: e.code, message: e.message });
          else socket.emit(CHAT_EVENTS.chatError, { event, code: e.code, message: e.message });
          // As a revocation does: the client reconnects with a fresh sign-in or as a visitor.
          if (sessionEnded || backOfficeEnded) socket.disconnect(true);
        }
      });
    }

    const send = async (chatId: string, text: string, side: ChatSide): Promise<ChatMessage> => {
      if (side === 'agency') await requireBackOffice();
      else if (!(await messageLimit.take(socket.data.address)))
        throw tooManyRequests('Too many messages from your network. Please wait a few seconds.');
      const conversation = await access(chatId);
      // Stored (in the next batch) before anyone hears of it; the summary comes from the same statement.
      const { message, summary } = await messageWriter.store({ chatId, sender: chatSenderOf(side), text, who: conversation });
      if (!socket.rooms.has(room(chatId))) void socket.join(room(chatId));
      io.to(room(chatId)).emit(CHAT_EVENTS.newMessage, message);
      void adminOnline()
        .then(async (online) => {
          if (online) io.to(ADMINS).emit(CHAT_EVENTS.chatSummary, summary);
          await afterMessage(conversation, message, await answering(online));
        })
        .catch((err) => log.error({ err }, 'chat: after message'));
      return message;
    };

    on(CHAT_EVENTS.joinChat, joinChatPayload, lookups, async (chatId) => {
      const conversation = await access(chatId, true);
      await socket.join(room(chatId));
      if (socket.data.role === 'agency') {
        await markRead(database, chatId, 'agency');
        void emitSummary(chatId).catch((err) => log.warn({ err }, 'chat: summary'));
      } else {
        socket.emit(CHAT_EVENTS.adminPresence, await presencePayload());
      }
      return { state: conversation.state };
    });

    on(CHAT_EVENTS.getChatHistory, joinChatPayload, lookups, async (chatId) => {
      await access(chatId);
      const history = await chatHistory(database, chatId);
      await markRead(database, chatId, socket.data.role === 'agency' ? 'agency' : 'visitor');
      socket.emit(CHAT_EVENTS.chatHistory, history);
      return { history };
    });

    // The spec's payload carries `sender`; it is ignored: the connection decides.
    on(CHAT_EVENTS.sendMessage, sendMessagePayload, messages, async ({ chatId, message }) => ({
      message: await send(chatId, message, socket.data.role === 'agency' ? 'agency' : 'visitor'),
    }));

    on(CHAT_EVENTS.adminSendMessage, adminSendMessagePayload, messages, async ({ chatId, message }) => {
      return { message: await send(chatId, message, 'agency') };
    });

    on(CHAT_EVENTS.closeChat, joinChatPayload, lookups, async (chatId) => {
      await access(chatId);
      // The agency's close is audited with the change.
      const agent = socket.data.role === 'agency' ? await requireBackOffice() : null;
      await closeConversation(database, chatId, agent ? { actorUserId: agent.user.id } : undefined);
      io.to(room(chatId)).to(ADMINS).emit(CHAT_EVENTS.chatClosed, { chatId });
    });

    // CSAT (decision 347): the visitor of a closed chat rates it once; a second rating is a CONFLICT.
    on(CHAT_EVENTS.rateChat, rateChatPayload, lookups, async ({ chatId, score, comment }) => {
      if (socket.data.role === 'agency') throw forbidden('The visitor rates the chat.');
      const conversation = await access(chatId, true);
      if (conversation.state !== 'closed') throw conflict('A chat can be rated once it is closed.');
      await rateClosedChat(database, chatId, score, comment || null);
    });

    on(CHAT_EVENTS.setContactEmail, setContactEmailPayload, lookups, async ({ chatId, email }) => {
      const conversation = await access(chatId);
      await setContactEmail(database, chatId, email);
      conversation.contactEmail = email;
      void emitSummary(chatId).catch((err) => log.warn({ err }, 'chat: summary'));
    });

    on(CHAT_EVENTS.getActiveChats, z.unknown(), lookups, async () => {
      await requireBackOffice();
      const summaries = await activeSummaries(database);
      socket.emit(
        CHAT_EVENTS.activeChats,
        summaries.map((s) => s.chatId),
      );
      socket.emit(CHAT_EVENTS.chatSummaries, summaries);
      return { summaries };
    });
  });

  // Chats whose visitor's asking for a person was published by this instance (pushes dedupe the rest:
  // docs/decisions/343-web-push.md); forgotten wholesale when large — a repeat only costs a lookup.
  const askedForHuman = new Set<string>();
  const announceHumanAsked = async (chatId: string) => {
    if (askedForHuman.has(chatId)) return;
    if (askedForHuman.size >= 10_000) askedForHuman.clear();
    askedForHuman.add(chatId);
    await deps.events.publishAlone('chat.human', { chatId, at: new Date() });
  };

  /** Offline mode: the owner hears about a new chat, the visitor about a reply, by e-mail. */
  async function afterMessage(conversation: Conversation, message: ChatMessage, agencyIsOnline: boolean) {
    if (chatSideOf(message.sender) === 'visitor') {
      // The owner hears once per chat, of its first message: claimed before anything is awaited, so a
      // second message handled meanwhile neither mails again nor becomes the one mailed.
      const mailOwner = !agencyIsOnline && !conversation.ownerNotified;
      if (mailOwner) conversation.ownerNotified = true;
      // Everyone on the agency's side who allowed it hears at once, online or not (push).
      await announceHumanAsked(conversation.id).catch((err) => log.error({ err }, 'chat: announcing a visitor who asks for a person'));
      if (mailOwner) await emailOwnerNewChat(deps, conversation, message.message);
      return;
    }
    const to = conversation.userEmail ?? conversation.contactEmail;
    if (!to) return;
    if (await someoneIn(room(conversation.id), (d) => d.role !== 'agency')) return;
    await emailVisitorReply(deps, to, message.message);
  }

  return { adminOnline };
}
