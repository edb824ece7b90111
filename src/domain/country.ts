// The country type and the default, apart from the list (src/domain/countries.ts) so that a form
// that starts on the default does not ship the whole list before the picker opens.

export interface Country {
  /** ISO 3166-1 alpha-2, upper case. */
  code: string;
  name: string;
  /** Calling code digits, without "+"; some carry an area suffix such as 1-242. */
  phone_code: string;
}

/** United States, phone code 1 (spec §3, §9): the picker's first country. */
export const DEFAULT_COUNTRY: Country = { code: 'US', name: 'United States', phone_code: '1' };

/** DEFAULT_PHONE_COUNTRY's default: the phone's country when the visitor's location is unknown (docs/decisions/336-tracker-and-phone-country.md). */
export const INDIA: Country = { code: 'IN', name: 'India', phone_code: '91' };
