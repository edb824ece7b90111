// Our own weather icons for the provider's icon codes ('01d' clear … '50n' mist), so no image
// is ever loaded from the weather provider. SVG markup (24×24) as text, so that the React icon and
// the footer's DOM island (decision 115) draw the same thing.
export type WeatherKind = 'clear' | 'partly' | 'clouds' | 'rain' | 'storm' | 'snow' | 'mist';

export function weatherKindOf(icon: string): WeatherKind {
  const n = icon.slice(0, 2);
  if (n === '01') return 'clear';
  if (n === '02') return 'partly';
  if (n === '03' || n === '04') return 'clouds';
  if (n === '09' || n === '10') return 'rain';
  if (n === '11') return 'storm';
  if (n === '13') return 'snow';
  if (n === '50') return 'mist';
  return 'clear';
}

const sun = '<circle cx="12" cy="12" r="4.5" fill="#facc15"/>';
const rays =
  '<path d="M12 2v2.5M12 19.5V22M2 12h2.5M19.5 12H22M4.9 4.9l1.8 1.8M17.3 17.3l1.8 1.8M4.9 19.1l1.8-1.8M17.3 6.7l1.8-1.8" stroke="#facc15" stroke-width="1.6" stroke-linecap="round"/>';
const cloud = '<path d="M7 18h10a4 4 0 0 0 .4-8 5.5 5.5 0 0 0-10.6 1.5A3.3 3.3 0 0 0 7 18Z" fill="#cbd5e1"/>';
const raisedCloud = `<g transform="translate(0 -3)">${cloud}</g>`;

export const WEATHER_SHAPES: Record<WeatherKind, string> = {
  clear: sun + rays,
  partly: `<g transform="translate(-3 -3) scale(0.8)">${sun}${rays}</g>${cloud}`,
  clouds: cloud,
  rain: `${raisedCloud}<path d="M9 18l-1 3M13 18l-1 3M17 18l-1 3" stroke="#60a5fa" stroke-width="1.6" stroke-linecap="round"/>`,
  storm: `${raisedCloud}<path d="M13 15l-3 4h3l-2 4" stroke="#facc15" stroke-width="1.6" fill="none" stroke-linecap="round" stroke-linejoin="round"/>`,
  snow: `${raisedCloud}<path d="M9 19v3M7.5 20.5h3M15 19v3M13.5 20.5h3" stroke="#e2e8f0" stroke-width="1.4" stroke-linecap="round"/>`,
  mist: '<path d="M4 8h16M2 12h18M5 16h14M8 20h10" stroke="#cbd5e1" stroke-width="1.6" stroke-linecap="round"/>',
};
