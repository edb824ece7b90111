import { useWeather } from './use-weather.ts';
import { WeatherIcon } from './weather-icon.tsx';
import { FooterClock } from './footer-clock.tsx';
import { locationText, READINGS } from './weather-readings.ts';

/**
 * Footer block: the visitor's location, the date and time, and the weather (spec §2). On the
 * prerendered pages this is the markup and footer-weather-dom.ts fills it in without React (decision 115).
 */
export function FooterWeather() {
  const w = useWeather();
  return (
    <section aria-labelledby="footer-weather-title" data-testid="footer-weather" className="rounded-2xl border border-line bg-card p-4">
      <h2 id="footer-weather-title" className="text-sm font-semibold text-white">
        Your location
      </h2>
      <p data-testid="footer-location" className="mt-1 text-ink">
        {locationText(w)}
      </p>
      <p className="mt-1 text-xs text-muted">
        <FooterClock />
      </p>
      <div className="mt-3 flex items-center gap-3">
        <WeatherIcon icon={w.icon} className="h-10 w-10 shrink-0" />
        <div>
          <p data-testid="weather-description" className="font-medium text-ink">
            {w.description}
          </p>
          {/* A reading not known is hidden and empty, label included. The list keeps its
              line height so that the box does not move when the numbers arrive. */}
          <dl className="mt-1 flex min-h-4 flex-wrap gap-x-3 text-xs text-muted">
            {READINGS.map((r) => {
              const value = r.value(w);
              return (
                <div key={r.testId} className="flex gap-1" hidden={value === null}>
                  <dt>{value === null ? '' : r.label}</dt>
                  <dd data-testid={r.testId}>{value ?? ''}</dd>
                </div>
              );
            })}
          </dl>
        </div>
      </div>
    </section>
  );
}
