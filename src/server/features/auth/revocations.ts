/** Which sessions just ended: one session (logout) or every session of a user (logoutAll, admin). */
export type Revocation = { sessionId: string } | { userId: string };

/**
 * Tells the parts that hold on to a session beyond one request (live chat sockets; caches) that it
 * was revoked. Listeners act on every instance themselves, e.g. through the socket
 * adapter; this hub is per process and synchronous.
 */
export function createRevocations() {
  const listeners: ((r: Revocation) => void)[] = [];
  return {
    on(listener: (r: Revocation) => void) {
      listeners.push(listener);
    },
    revoked(r: Revocation) {
      for (const l of listeners) l(r);
    },
  };
}
export type Revocations = ReturnType<typeof createRevocations>;
