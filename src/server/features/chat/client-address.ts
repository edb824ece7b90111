import type { IncomingMessage } from 'node:http';

/**
 * The visitor's address for a socket handshake, following TRUST_PROXY like Fastify does for HTTP:
 * unset → the TCP peer; a hop count n → the n-th address from the right of X-Forwarded-For;
 * 'true' → the left-most. Any other value (a list of proxy addresses) falls back to the peer.
 */
export function clientAddress(req: IncomingMessage, trustProxy: string | undefined): string {
  const peer = req.socket.remoteAddress ?? 'unknown';
  if (!trustProxy) return peer;
  const header = req.headers['x-forwarded-for'];
  const forwarded = (Array.isArray(header) ? header.join(',') : (header ?? ''))
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const chain = [...forwarded, peer];
  if (trustProxy === 'true') return chain[0] ?? peer;
  if (/^\d+$/.test(trustProxy)) return chain[Math.max(0, chain.length - 1 - Number(trustProxy))] ?? peer;
  return peer;
}
