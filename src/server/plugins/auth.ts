import type { FastifyInstance, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import { isOwner } from '../../domain/roles.ts';
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import { forbidden, unauthorized } from '../lib/app-error.ts';
import { type AuthContext, bearerToken, findSession } from '../features/auth/sessions.ts';
import { assertBackOffice } from '../features/auth/back-office-access.ts';
import { permissionOf } from '../features/admin/permissions.ts';

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

/**
 * The back office's guard (decisions 093, 190, 191): 401 without a session; 403 'Admins only.' for a
 * customer; 403 STEP_UP_REQUIRED for staff or owner whose session is not confirmed within the
 * step-up window; 403 'Only the owner can do this.' for staff on a route permissions.ts gives the
 * owner. Used as an onRequest hook, so it answers before any body is read or validated.
 */
export const requireAdmin = (deps: {
  db: Db;
  config: Pick<Config, 'ADMIN_STEP_UP' | 'ADMIN_STEP_UP_HOURS'>;
}): preHandlerAsyncHookHandler => {
  const guard: preHandlerAsyncHookHandler = async (request) => {
    const auth = await resolve(deps.db, request);
    if (!auth) throw unauthorized();
    const backOffice = assertBackOffice(deps.config, auth);
    if (permissionOf(request.method, request.routeOptions.url) === 'owner' && !isOwner(backOffice.user.role))
      throw forbidden('Only the owner can do this.');
  };
  adminGuards.add(guard);
  return guard;
};

/** For handlers behind requireUser/requireAdmin: the non-null auth context. */
export function authOf(request: FastifyRequest): AuthContext {
  if (!request.auth) throw unauthorized();
  return request.auth;
}
