import { isBackOffice } from '../../../domain/roles.ts';
import type { Config } from '../../config.ts';
import { AppError, forbidden } from '../../lib/app-error.ts';
import { confirmedUntil, stepUpRequired } from '../../lib/step-up.ts';
import type { AuthContext } from './sessions.ts';

// Who may enter the back office now (decisions 190, 191), shared by the HTTP guard (plugins/auth.ts),
// the OpenAPI document, the chat console's and the order rooms' socket events: a back-office role
// and, with ADMIN_STEP_UP=passkey, a session confirmed within the window (lib/step-up.ts). What each
// back-office role may do there is the admin feature's permissions.ts.

type StepUpConfig = Pick<Config, 'ADMIN_STEP_UP' | 'ADMIN_STEP_UP_HOURS'>;
type BackOfficeAuth = AuthContext & { user: { role: 'staff' | 'admin' } };

export const stepUpError = () => new AppError('STEP_UP_REQUIRED', 'Please confirm it is you with your passkey to open the back office.');

/**
 * Throws unless the session may enter the back office now: 403 FORBIDDEN 'Admins only.' for a
 * customer, 403 STEP_UP_REQUIRED for staff or owner without a confirmation in the window. The second
 * factor is checked before anything else is decided, so an unconfirmed session learns nothing about
 * what its role could do.
 */
export function assertBackOffice(config: StepUpConfig, auth: AuthContext, now = Date.now()): BackOfficeAuth {
  if (!isBackOffice(auth.user.role)) throw forbidden('Admins only.');
  if (stepUpRequired(config, auth.user.role, auth.confirmedAt, now)) throw stepUpError();
  return auth as BackOfficeAuth;
}

/** The same rule as a yes/no (the OpenAPI document, the socket handshake). */
export const mayEnterBackOffice = (config: StepUpConfig, auth: AuthContext | null, now = Date.now()): boolean =>
  !!auth && isBackOffice(auth.user.role) && !stepUpRequired(config, auth.user.role, auth.confirmedAt, now);

/** Until when a back-office session's confirmation holds (ms since epoch); Infinity with the step-up off. */
export const backOfficeUntil = (config: StepUpConfig, auth: AuthContext): number =>
  config.ADMIN_STEP_UP !== 'passkey' ? Number.POSITIVE_INFINITY : auth.confirmedAt ? confirmedUntil(config, auth.confirmedAt).getTime() : 0;

/** What endWhenStepUpLapses needs of a socket.io socket. */
interface EndableSocket {
  disconnect(close: boolean): unknown;
  once(event: 'disconnect', listener: () => void): unknown;
}
const lapseTimers = new WeakMap<EndableSocket, ReturnType<typeof setTimeout>>();

/**
 * One rule for every back-office socket, whatever the order of events (connected confirmed, or
 * confirmed by an HTTP step-up after it connected and then admitted to a room): it is on the
 * agency's side only while its session is confirmed, so it is ended when the window of `auth` (the
 * session as read at the handshake or at the latest join) closes. Each call re-arms the one timer
 * of that socket from the freshest read; with the step-up off nothing is armed.
 */
export function endWhenStepUpLapses(socket: EndableSocket, config: StepUpConfig, auth: AuthContext, now = Date.now()): void {
  const until = backOfficeUntil(config, auth);
  if (!Number.isFinite(until)) return;
  const previous = lapseTimers.get(socket);
  if (previous) clearTimeout(previous);
  else socket.once('disconnect', () => clearTimeout(lapseTimers.get(socket)));
  // setTimeout's longest delay; a longer window is re-armed by the next join or reconnection.
  const timer = setTimeout(() => socket.disconnect(true), Math.min(Math.max(until - now, 0), 2 ** 31 - 1));
  timer.unref();
  lapseTimers.set(socket, timer);
}
