import { useWeather } from './use-weather.ts';
import { WeatherIcon } from './weather-icon.tsx';
import { FooterClock } from './footer-clock.tsx';

const show = (value: number | null, unit: string) => (value === null ? '–' : `${Math.round(value)}${unit}`);

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
          <dl className="mt-1 flex flex-wrap gap-x-3 text-xs text-muted">
            <div className="flex gap-1">
              <dt>Temp</dt>
              <dd data-testid="weather-temp">{show(w.temp, '°C')}</dd>
            </div>
            <div className="flex gap-1">
              <dt>Humidity</dt>
              <dd data-testid="weather-humidity">{show(w.humidity, '%')}</dd>
            </div>
            <div className="flex gap-1">
              <dt>Wind</dt>
              <dd data-testid="weather-wind">{w.wind === null ? '–' : `${w.wind.toFixed(1)} km/h`}</dd>
            </div>
          </dl>
        </div>
      </div>
    </section>
  );
}
