import { useCallback, useEffect, useState } from 'react';
import { getOtpCreatedAt } from './auth-api.ts';

const SPEC_WAIT_S = 20; // spec §9 "Resend wait 20 s" (the server says its own value)

/**
 * Spec §4 "Code screen": the countdown starts from what remains of the wait since the code was
 * really created (user/getOtpCreatedAt), ticks each second, and restarts after a new code.
 */
export function useResendCountdown(email: string | undefined) {
  const [readyAt, setReadyAt] = useState<number | null>(null);
  const [wait, setWait] = useState(SPEC_WAIT_S);
  const [now, setNow] = useState(() => Date.now());

  const sync = useCallback(async () => {
    if (!email) return;
    try {
      const r = await getOtpCreatedAt(email);
      setWait(r.resendAfterSeconds);
      const created = r.createdAt ? Date.parse(r.createdAt) : Date.now();
      // Never trust a skewed client clock beyond the full wait.
      setReadyAt(Math.min(created + r.resendAfterSeconds * 1000, Date.now() + r.resendAfterSeconds * 1000));
    } catch {
      setReadyAt(Date.now() + SPEC_WAIT_S * 1000);
    }
  }, [email]);

  useEffect(() => {
    void sync();
  }, [sync]);

  const secondsLeft = readyAt === null ? wait : Math.max(0, Math.ceil((readyAt - now) / 1000));
  useEffect(() => {
    if (readyAt === null || secondsLeft <= 0) return;
    const id = window.setInterval(() => setNow(Date.now()), 1000);
    return () => window.clearInterval(id);
  }, [readyAt, secondsLeft]);

  const restart = useCallback(() => {
    setNow(Date.now());
    setReadyAt(Date.now() + wait * 1000);
  }, [wait]);

  return { secondsLeft, loaded: readyAt !== null, restart, resync: sync };
}
