import { useWeather } from './use-weather.ts';
import { WeatherIcon } from './weather-icon.tsx';
import { FooterClock } from './footer-clock.tsx';

/** Footer block: the visitor's location, the date and time, and the weather (spec §2). */
export function FooterWeather() {
  const w = useWeather();
  return (
    <section aria-labelledby="footer-weather-title" data-testid="footer-weather" className="rounded-2xl border border-line bg-card p-4">
      <h2 id="footer-weather-title" className="text-sm font-semibold text-white">
        Your location
      </h2>
      <p data-testid="footer-location" className="mt-1 text-ink">
        {w.city}
        {w.country ? `, ${w.country}` : ''}
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
          {/* Issue 12.13: a number that is not known is left out, never shown as a dash. The list
              keeps its line height so that the box does not move when the numbers arrive. */}
          <dl className="mt-1 flex min-h-4 flex-wrap gap-x-3 text-xs text-muted">
            {w.temp !== null && <Reading label="Temp" testId="weather-temp" value={`${Math.round(w.temp)}°C`} />}
            {w.humidity !== null && <Reading label="Humidity" testId="weather-humidity" value={`${Math.round(w.humidity)}%`} />}
            {w.wind !== null && <Reading label="Wind" testId="weather-wind" value={`${w.wind.toFixed(1)} km/h`} />}
          </dl>
        </div>
      </div>
    </section>
  );
}

function Reading({ label, testId, value }: { label: string; testId: string; value: string }) {
  return (
    <div className="flex gap-1">
      <dt>{label}</dt>
      <dd data-testid={testId}>{value}</dd>
    </div>
  );
}
