import type { Config } from '../../config.ts';
import type { AuthContext } from '../auth/sessions.ts';
import { isBackOffice } from '../../../domain/roles.ts';
import { AppError } from '../../lib/app-error.ts';
import { stepUpRequired } from '../../lib/step-up.ts';

/**
 * Whether this account's passkeys are guarded by the step-up (decision 190): a back-office account
 * while ADMIN_STEP_UP=passkey. Its passkeys are what keeps a mailbox thief out, so adding another
 * one or removing one needs a session a passkey confirmed, and the last one stays.
 */
export const passkeysGuarded = (config: Config, auth: AuthContext) => config.ADMIN_STEP_UP === 'passkey' && isBackOffice(auth.user.role);

/** 403 STEP_UP_REQUIRED unless the session was confirmed within ADMIN_STEP_UP_HOURS. */
export function assertConfirmed(config: Config, auth: AuthContext, what: string) {
  if (stepUpRequired(config, auth.user.role, auth.confirmedAt)) {
    throw new AppError('STEP_UP_REQUIRED', `Confirm with one of your passkeys (or a recovery code) before you ${what}.`);
  }
}
