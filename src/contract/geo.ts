import { z } from 'zod';

/**
 * Spec §3 "Weather data": the footer's location and weather, looked up by the server from the
 * caller's IP. `icon` is the weather provider's icon code ('01d'); the browser draws its own icon
 * for it and never loads anything from the provider. temp °C, humidity %, wind km/h.
 */
export const weatherResponse = z.object({
  city: z.string(),
  country: z.string().nullable(),
  description: z.string(),
  temp: z.number().nullable(),
  humidity: z.number().nullable(),
  wind: z.number().nullable(),
  icon: z.string(),
  /** 'default' when a lookup failed and the spec's fallback (Newyork, 'Clear Sky') is shown. */
  source: z.enum(['live', 'default']),
});
export type WeatherResponse = z.infer<typeof weatherResponse>;
