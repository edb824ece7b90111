import type { WeatherResponse } from '../../../contract/geo.ts';

// What the footer says of the weather (spec §2), shared by FooterWeather and its DOM island.
// A number that is not known is left out, never shown as a dash (null here).
export const locationText = (w: Pick<WeatherResponse, 'city' | 'country'>) => `${w.city}${w.country ? `, ${w.country}` : ''}`;

export const READINGS = [
  { label: 'Temp', testId: 'weather-temp', value: (w: WeatherResponse) => (w.temp === null ? null : `${Math.round(w.temp)}°C`) },
  {
    label: 'Humidity',
    testId: 'weather-humidity',
    value: (w: WeatherResponse) => (w.humidity === null ? null : `${Math.round(w.humidity)}%`),
  },
  { label: 'Wind', testId: 'weather-wind', value: (w: WeatherResponse) => (w.wind === null ? null : `${w.wind.toFixed(1)} km/h`) },
] as const;

/** The footer clock refreshes this often. */
export const CLOCK_TICK_MS = 15_000;
