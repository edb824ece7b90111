import Fastify, { type FastifyInstance } from 'fastify';
import helmet, { type FastifyHelmetOptions } from '@fastify/helmet';
import cors from '@fastify/cors';
import type { Config } from '../config.ts';

/** The CSP allows only what the pages need. */
function helmetOptions(config: Config): FastifyHelmetOptions {
  const checkoutOrigin = new URL(config.RAZORPAY_CHECKOUT_URL).origin;
  const usesRazorpay = Boolean(config.RAZORPAY_KEY_ID);
  return {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", ...(usesRazorpay ? [checkoutOrigin] : [])],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'", 'ws:', 'wss:', ...(usesRazorpay ? ['https://*.razorpay.com'] : [])],
        frameSrc: usesRazorpay ? ['https://*.razorpay.com'] : ["'self'"],
        formAction: ["'self'", ...(usesRazorpay ? ['https://*.razorpay.com'] : [])],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        frameAncestors: ["'self'"],
        upgradeInsecureRequests: null,
      },
    },
    // Razorpay's checkout opens in an iframe/popup that must be able to talk back to us.
    crossOriginOpenerPolicy: { policy: 'same-origin-allow-popups' },
    crossOriginEmbedderPolicy: false,
    strictTransportSecurity: config.isProduction ? undefined : false,
  };
}

/**
 * The headers @fastify/helmet sends with these options, computed once. The plugin rebuilds helmet
 * and re-parses the CSP on every request (~15 % of a page request in a CPU profile of the server); the
 * headers do not depend on the request (no nonces), so one throw-away instance answers one request
 * at start-up and its headers are what every response gets.
 */
export async function securityHeaders(config: Config): Promise<Record<string, string>> {
  const probe = Fastify({ logger: false });
  await probe.register(helmet, helmetOptions(config));
  probe.get('/', async () => 'ok');
  const res = await probe.inject({ url: '/' });
  await probe.close();
  const skip = new Set(['content-type', 'content-length', 'date', 'connection', 'keep-alive']);
  return Object.fromEntries(
    Object.entries(res.headers)
      .filter(([name]) => !skip.has(name))
      .map(([name, value]) => [name, String(value)]),
  );
}

/**
 * The origins the HTTP API and the socket server both accept: PUBLIC_URL and CORS_ORIGINS. A request
 * with no Origin (curl, servers, native apps) is not a cross-site browser request and is allowed.
 */
export function allowedOrigin(config: Config): (origin: string | undefined) => boolean {
  const allowed = new Set([config.publicUrl, ...config.CORS_ORIGINS]);
  return (origin) => !origin || allowed.has(origin);
}

/** Security headers (helmet's, computed once) and CORS limited to our origins. */
export async function registerSecurity(app: FastifyInstance, config: Config) {
  const headers = await securityHeaders(config);
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(headers);
    done();
  });
  const allowed = allowedOrigin(config);
  await app.register(cors, {
    origin: (origin, cb) => cb(null, allowed(origin)),
    credentials: false,
  });
}
