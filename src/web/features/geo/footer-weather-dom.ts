import { formatFooterDateTime } from './format-date-time.ts';
import { visitorWeather } from './weather.ts';
import { CLOCK_TICK_MS, locationText, READINGS } from './weather-readings.ts';
import { WEATHER_SHAPES, weatherKindOf } from './weather-shapes.ts';

/**
 * The footer's location, clock and weather on a prerendered page without React (docs/decisions/115):
 * FooterWeather's markup, filled in when it comes near the viewport (islands.ts).
 */
export function runFooterWeather(el: HTMLElement) {
  const part = (testId: string) => el.querySelector<HTMLElement>(`[data-testid="${testId}"]`)!;
  const clock = part('footer-datetime');
  const tick = () => {
    const now = new Date();
    clock.setAttribute('datetime', now.toISOString());
    clock.textContent = formatFooterDateTime(now);
  };
  tick();
  window.setInterval(tick, CLOCK_TICK_MS);

  void visitorWeather().then((w) => {
    part('footer-location').textContent = locationText(w);
    part('weather-description').textContent = w.description;
    const icon = el.querySelector<SVGSVGElement>('svg[data-icon]')!;
    const kind = weatherKindOf(w.icon);
    icon.dataset.icon = kind;
    icon.innerHTML = WEATHER_SHAPES[kind];
    for (const r of READINGS) {
      const value = r.value(w);
      const dd = part(r.testId);
      dd.textContent = value ?? '';
      dd.previousElementSibling!.textContent = value === null ? '' : r.label;
      dd.parentElement!.hidden = value === null;
    }
  });
}
