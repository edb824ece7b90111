import type { FastifyInstance, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import type { Db } from '../db/client.ts';
import { forbidden, unauthorized } from '../lib/app-error.ts';
import { type AuthContext, bearerToken, findSession } from '../features/auth/sessions.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by `optionalUser`, `requireUser` or `requireAdmin`. */
    auth: AuthContext | null;
  }
}

export function registerAuthDecorations(app: FastifyInstance) {
  app.decorateRequest('auth', null);
}

async function resolve(db: Db, request: FastifyRequest) {
  const token = bearerToken(request.headers.authorization);
  request.auth = token ? await findSession(db, token) : null;
  return request.auth;
}

/** Attaches the session when a valid bearer token is present; never refuses. */
export const optionalUser =
  (db: Db): preHandlerAsyncHookHandler =>
  async (request) => {
    await resolve(db, request);
  };

/** 401 unless the request carries a live session. */
export const requireUser =
  (db: Db): preHandlerAsyncHookHandler =>
  async (request) => {
    if (!(await resolve(db, request))) throw unauthorized();
  };

const adminGuards = new WeakSet<object>();

/** Whether a route hook is the admin guard (the OpenAPI document keeps such routes for admins). */
export const isAdminGuard = (hook: unknown) => typeof hook === 'function' && adminGuards.has(hook);

/** 401 without a session, 403 for a signed-in user who is not an admin. */
export const requireAdmin = (db: Db): preHandlerAsyncHookHandler => {
  const guard: preHandlerAsyncHookHandler = async (request) => {
    const auth = await resolve(db, request);
    if (!auth) throw unauthorized();
    if (auth.user.role !== 'admin') throw forbidden('Admins only.');
  };
  adminGuards.add(guard);
  return guard;
};

/** For handlers behind requireUser/requireAdmin: the non-null auth context. */
export function authOf(request: FastifyRequest): AuthContext {
  if (!request.auth) throw unauthorized();
  return request.auth;
}
