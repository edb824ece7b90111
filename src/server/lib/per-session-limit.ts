import type { FastifyRequest } from 'fastify';

// Signed-in routes are limited per session (bearer token), so customers behind one office IP do
// not throttle each other; without a token the IP counts.
export const perSession = (max: number) => ({
  rateLimit: { max, timeWindow: '1 minute', keyGenerator: (req: FastifyRequest) => req.headers.authorization?.slice(-24) ?? req.ip },
});
