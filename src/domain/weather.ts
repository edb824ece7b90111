// Spec §3 "Weather data" and §9 defaults: pure helpers shared by the server adapter and the footer.

/** Spec §3/§9: default city 'Newyork'; description default 'Clear Sky'. */
export const DEFAULT_CITY = 'Newyork';
export const DEFAULT_WEATHER_DESCRIPTION = 'Clear Sky';
export const DEFAULT_WEATHER_ICON = '01d';

export interface Weather {
  city: string;
  country: string | null;
  description: string;
  /** °C */
  temp: number | null;
  /** % */
  humidity: number | null;
  /** km/h */
  wind: number | null;
  icon: string;
  source: 'live' | 'default';
}

export const DEFAULT_WEATHER: Weather = {
  city: DEFAULT_CITY,
  country: null,
  description: DEFAULT_WEATHER_DESCRIPTION,
  temp: null,
  humidity: null,
  wind: null,
  icon: DEFAULT_WEATHER_ICON,
  source: 'default',
};

/** 'scattered clouds' → 'Scattered Clouds' (spec §3: each word capitalised). */
export function capitalizeWords(text: string): string {
  return text
    .trim()
    .split(/\s+/)
    .filter(Boolean)
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1).toLowerCase())
    .join(' ');
}

/** Metric wind speed arrives in m/s; the footer shows km/h with one decimal. */
export const metersPerSecondToKmh = (ms: number) => Math.round(ms * 3.6 * 10) / 10;
