import { WEATHER_SHAPES, weatherKindOf } from './weather-shapes.ts';

/** Our own weather icon for a provider icon code (weather-shapes.ts). */
export function WeatherIcon({ icon, className = 'h-8 w-8' }: { icon: string; className?: string }) {
  const kind = weatherKindOf(icon);
  return (
    <svg
      viewBox="0 0 24 24"
      className={className}
      aria-hidden="true"
      data-icon={kind}
      dangerouslySetInnerHTML={{ __html: WEATHER_SHAPES[kind] }}
    />
  );
}
