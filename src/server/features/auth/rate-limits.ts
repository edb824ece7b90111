import type { Config } from '../../config.ts';

// Per-IP, per-minute caps for the routes strangers can call. They sit on top of the
// per-e-mail and per-IP hourly caps of the code sender, which are kept in the database so that
// they hold across instances.
export function authRateLimits(config: Config) {
  const perMinute = config.AUTH_MAX_PER_IP_MINUTE;
  const limit = (max: number) => ({ rateLimit: { max, timeWindow: '1 minute' } });
  return {
    send: limit(perMinute),
    verify: limit(perMinute * 3),
    read: limit(perMinute * 6),
  };
}
