// A database that does not answer (restart, failover, network cut) is a temporary condition:
// requests get 503 with Retry-After, not 500, and the pool reconnects on its own.

// SQLSTATE class 08 = connection exception; 57P01–57P03 = admin/crash shutdown, cannot connect now;
// 53300 = too many connections.
const UNAVAILABLE_SQLSTATE = /^(08...|57P0[123]|53300)$/;
const UNAVAILABLE_ERRNO = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTFOUND']);
// node-postgres reports a lost or refused connection with plain messages, not codes.
const UNAVAILABLE_MESSAGE = new RegExp(
  [
    'Connection terminated',
    'timeout exceeded when trying to connect',
    'Client has encountered a connection error',
    'not queryable',
    'not currently accepting connections',
    'Cannot use a pool after calling end',
  ].join('|'),
  'i',
);

/** True when `err` (or an error it wraps, as drizzle does) says the database cannot be reached. */
export function isDatabaseUnavailable(err: unknown): boolean {
  for (let e = err, depth = 0; e && typeof e === 'object' && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const { code, message } = e as { code?: unknown; message?: unknown };
    if (typeof code === 'string' && (UNAVAILABLE_SQLSTATE.test(code) || UNAVAILABLE_ERRNO.has(code))) return true;
    if (typeof message === 'string' && UNAVAILABLE_MESSAGE.test(message)) return true;
  }
  return false;
}
