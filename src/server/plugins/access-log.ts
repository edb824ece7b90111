import type { FastifyRequest } from 'fastify';

// The access log carries the path and the NAMES of query parameters, never their values: OIDC
// `code`/`state`, sign-in links, search terms and any token sent in a query string would otherwise
// sit in log files and log shippers.

const PLAIN_NAME = /^[\w.[\]-]{1,40}$/;

/** `/cb?code=abc&state=xyz` → `/cb?code=[redacted]&state=[redacted]`. */
export function redactedUrl(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const query = url.slice(q + 1);
  if (!query) return url.slice(0, q);
  const parts = query.split('&').map((pair) => {
    const name = pair.split('=')[0] ?? '';
    let decoded = name;
    try {
      decoded = decodeURIComponent(name.replace(/\+/g, ' '));
    } catch {
      decoded = '';
    }
    return `${PLAIN_NAME.test(decoded) ? decoded : '[redacted]'}=[redacted]`;
  });
  return `${url.slice(0, q)}?${parts.join('&')}`;
}

/** Replaces Fastify's default `req` serializer (same fields, redacted URL). */
export function accessLogRequest(req: FastifyRequest) {
  return {
    method: req.method,
    url: redactedUrl(req.url),
    host: req.host,
    remoteAddress: req.ip,
    remotePort: req.socket?.remotePort,
  };
}
