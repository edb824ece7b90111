import type { Config } from '../config.ts';
import { isBackOffice } from '../../domain/roles.ts';

// The back office's step-up rule (decision 190), in one place: the admin guard, the
// passkey routes and the admin socket all ask it.

type StepUpConfig = Pick<Config, 'ADMIN_STEP_UP' | 'ADMIN_STEP_UP_HOURS'>;

export const stepUpWindowMs = (config: Pick<Config, 'ADMIN_STEP_UP_HOURS'>) => config.ADMIN_STEP_UP_HOURS * 3600_000;

/** Whether a session was confirmed (passkey or recovery code) within the last `windowMs`. */
export function confirmedWithin(confirmedAt: Date | null | undefined, windowMs: number, now = Date.now()): boolean {
  if (!confirmedAt) return false;
  const at = confirmedAt.getTime();
  // A confirmation "in the future" (clock skew between instances) counts as now, never as forever.
  return now - at < windowMs && at - now < 60_000;
}

/** Until when the back office accepts a session confirmed at `confirmedAt`. */
export const confirmedUntil = (config: Pick<Config, 'ADMIN_STEP_UP_HOURS'>, confirmedAt: Date) =>
  new Date(confirmedAt.getTime() + stepUpWindowMs(config));

/**
 * Whether this session must confirm with a passkey before it may act as back office: a back-office
 * role ('staff' or the owner 'admin'), ADMIN_STEP_UP=passkey, and no confirmation in the window.
 */
export function stepUpRequired(config: StepUpConfig, role: string, confirmedAt: Date | null | undefined, now = Date.now()): boolean {
  if (config.ADMIN_STEP_UP !== 'passkey' || !isBackOffice(role)) return false;
  return !confirmedWithin(confirmedAt, stepUpWindowMs(config), now);
}
