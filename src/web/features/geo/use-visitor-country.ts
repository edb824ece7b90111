import { useEffect } from 'react';
import type { Country } from '../../../domain/country.ts';
import { siteConfig } from '../../lib/site-config.ts';
import { visitorWeather } from './weather.ts';

/**
 * The phone's country before the visitor's location is known, and when it is not:
 * DEFAULT_PHONE_COUNTRY (default India; docs/decisions/336-tracker-and-phone-country.md).
 */
export const defaultPhoneCountry = (): Country => siteConfig().defaultPhoneCountry;

/**
 * Preselects a phone country from the visitor's location (the same server look-up the footer and
 * the prices use), once, while `enabled` — that is, until the person picks a country or when the
 * form has none stored. Without a location the form keeps `defaultPhoneCountry()`
 * (docs/decisions/217-phone-country-from-location.md, 336-tracker-and-phone-country.md).
 */
export function useVisitorCountry(enabled: boolean, apply: (country: Country) => void) {
  useEffect(() => {
    if (!enabled) return;
    let alive = true;
    void visitorWeather().then(async (w) => {
      if (!w.country) return;
      // The list (~200 countries) loads only when there is a place to look up.
      const { findCountryOfPlace } = await import('../../../domain/countries.ts');
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
