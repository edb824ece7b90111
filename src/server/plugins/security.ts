import type { FastifyInstance } from 'fastify';
import helmet from '@fastify/helmet';
import cors from '@fastify/cors';
import type { Config } from '../config.ts';

/** Security headers with a CSP that allows only what the pages need, and CORS limited to our origins. */
export async function registerSecurity(app: FastifyInstance, config: Config) {
  const checkoutOrigin = new URL(config.RAZORPAY_CHECKOUT_URL).origin;
  const usesRazorpay = Boolean(config.RAZORPAY_KEY_ID);
  await app.register(helmet, {
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
  });
  const allowed = new Set([config.publicUrl, ...config.CORS_ORIGINS]);
  await app.register(cors, {
    origin: (origin, cb) => cb(null, !origin || allowed.has(origin)),
    credentials: false,
  });
}
