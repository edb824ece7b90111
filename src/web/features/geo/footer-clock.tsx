import { useEffect, useState } from 'react';
import { formatFooterDateTime } from './format-date-time.ts';
import { CLOCK_TICK_MS } from './weather-readings.ts';

/**
 * The current date and time (spec §2). Rendered only after hydration, because the prerendered
 * HTML was written at build time; the reserved width avoids a layout shift.
 */
export function FooterClock() {
  const [now, setNow] = useState<Date | null>(null);
  useEffect(() => {
    setNow(new Date());
    const timer = window.setInterval(() => setNow(new Date()), CLOCK_TICK_MS);
    return () => window.clearInterval(timer);
  }, []);
  return (
    <time data-testid="footer-datetime" dateTime={now?.toISOString()} className="inline-block min-h-5 min-w-[16rem]">
      {now ? formatFooterDateTime(now) : ''}
    </time>
  );
}
