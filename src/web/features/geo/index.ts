// The public face of src/web/features/geo: other features import it only from here
// (docs/decisions/338-web-reads-and-folder-rules.md, checked by src/web/architecture.test.ts).
export { defaultPhoneCountry, useVisitorCountry } from './use-visitor-country.ts';
export { useWeather } from './use-weather.ts';
