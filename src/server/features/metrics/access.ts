import { createHash, timingSafeEqual } from 'node:crypto';
import { BlockList, isIPv4 } from 'node:net';
import type { FastifyRequest } from 'fastify';

/**
 * Who may read /metrics: a client whose address (request.ip, so TRUST_PROXY applies as everywhere
 * else) is in METRICS_ALLOW, or one that sends `Authorization: Bearer <METRICS_TOKEN>`.
 */
export function metricsAccess(allow: string[], token: string | undefined): (req: FastifyRequest) => boolean {
  const list = new BlockList();
  for (const entry of allow) {
    const [ip, bits] = entry.split('/') as [string, string | undefined];
    const type = isIPv4(ip) ? 'ipv4' : 'ipv6';
    if (bits === undefined) list.addAddress(ip, type);
    else list.addSubnet(ip, Number(bits), type);
  }
  // Hashing first gives both sides one length, so the comparison time says nothing about the token.
  const expected = token ? createHash('sha256').update(token).digest() : undefined;

  return (req) => {
    if (expected) {
      const header = req.headers.authorization;
      if (header?.startsWith('Bearer ')) {
        const given = createHash('sha256').update(header.slice(7).trim()).digest();
        if (timingSafeEqual(given, expected)) return true;
      }
    }
    if (allow.length === 0) return false;
    const address = req.ip.startsWith('::ffff:') && isIPv4(req.ip.slice(7)) ? req.ip.slice(7) : req.ip;
    return list.check(address, isIPv4(address) ? 'ipv4' : 'ipv6');
  };
}
