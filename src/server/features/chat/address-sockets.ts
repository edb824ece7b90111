/**
 * The bound on open sockets per visitor address on this instance (decision 106).
 * Every open socket holds memory and joins presence queries across instances, so an address may
 * hold at most `max`. When a new socket would exceed that, the address's OLDEST socket that may be
 * evicted (one in no chat: a client that opened a socket per re-render and never closed the old
 * ones, or a tab left open) is closed to make room: the newest is the one the visitor is using. A
 * socket in a chat is never evicted; if every socket of the address is, the new one is refused.
 */
export interface AddressSockets<S> {
  /** Counts `socket` for `address`, evicting an idle older one if needed; false = refuse it. */
  admit(address: string, socket: S): boolean;
  /** The socket has gone (its disconnect); nothing happens if it was already evicted. */
  release(address: string, socket: S): void;
}

export function createAddressSockets<S>(
  max: number,
  { evictable, evict }: { evictable: (socket: S) => boolean; evict: (socket: S) => void },
): AddressSockets<S> {
  // Sets keep insertion order: the first evictable socket is the oldest one.
  const byAddress = new Map<string, Set<S>>();
  return {
    admit(address, socket) {
      const open = byAddress.get(address) ?? new Set<S>();
      if (open.size >= max) {
        let victim: S | undefined;
        for (const s of open)
          if (evictable(s)) {
            victim = s;
            break;
          }
        if (victim === undefined) return false;
        open.delete(victim);
        evict(victim);
      }
      open.add(socket);
      byAddress.set(address, open);
      return true;
    },
    release(address, socket) {
      const open = byAddress.get(address);
      if (!open?.delete(socket)) return;
      if (open.size === 0) byAddress.delete(address);
    },
  };
}
