import type { FastifyBaseLogger } from 'fastify';
import type { ChatServer } from '../../plugins/socket.ts';

export const ADMINS = 'admins';
const CHANGED = 'chat:admin-presence-changed';
// A remote admin's arrival or departure is pushed to every instance (CHANGED); the TTL only bounds
// how long a lost push can leave a wrong answer.
const REMOTE_TTL_MS = 5_000;

/**
 * "Is an admin online?" without a cross-instance round trip per message ( every visitor
 * message used to ask every instance through the adapter). Admins on this instance are counted;
 * admins elsewhere are looked up at most once per TTL, and every instance drops its cached answer
 * when an admin connects or leaves anywhere.
 */
export function createAdminPresence(io: ChatServer, clustered: boolean, log: FastifyBaseLogger) {
  let local = 0;
  let remote: { online: boolean; at: number } | null = null;
  let lookup: Promise<boolean> | null = null;

  if (clustered) io.on(CHANGED, () => (remote = null));

  const lookupRemote = async () => {
    try {
      const online = (await io.in(ADMINS).fetchSockets()).length > 0;
      remote = { online, at: Date.now() };
      return online;
    } catch (err) {
      // A dead peer makes fetchSockets time out; then act as if nobody were there (mail is sent).
      log.warn({ err: (err as Error).message }, 'chat: presence lookup failed');
      return false;
    }
  };

  return {
    async online(): Promise<boolean> {
      if (local > 0) return true;
      if (!clustered) return false;
      if (remote && Date.now() - remote.at < REMOTE_TTL_MS) return remote.online;
      lookup ??= lookupRemote().finally(() => (lookup = null));
      return lookup;
    },
    /** An admin socket connected (+1) or left (-1) on this instance. */
    changed(delta: 1 | -1) {
      local = Math.max(0, local + delta);
      if (!clustered) return;
      remote = null;
      try {
        io.serverSideEmit(CHANGED);
      } catch (err) {
        log.warn({ err: (err as Error).message }, 'chat: presence change not published');
      }
    },
  };
}
export type AdminPresence = ReturnType<typeof createAdminPresence>;
