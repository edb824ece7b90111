import { useEffect } from 'react';
import { findCountryOfPlace, type Country } from '../../../domain/countries.ts';
import { visitorWeather } from './weather.ts';

/**
 * Preselects a phone country from the visitor's location (the same server look-up the footer and
 * the prices use), once, while `enabled` — that is, until the person picks a country or when the
 * form has none stored. Without a location the form keeps the spec's +1
 * (docs/decisions/217-phone-country-from-location.md).
 */
export function useVisitorCountry(enabled: boolean, apply: (country: Country) => void) {
  useEffect(() => {
    if (!enabled) return;
    let alive = true;
    void visitorWeather().then((w) => {
      const found = findCountryOfPlace(w.country);
      if (alive && found) apply(found);
    });
    return () => {
      alive = false;
    };
    // Asked once per form; `apply` is a state setter the form keeps.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [enabled]);
}
