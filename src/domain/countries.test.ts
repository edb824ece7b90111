import { describe, expect, it } from 'vitest';
import { COUNTRIES, DEFAULT_COUNTRY, filterCountries, findCountryByCode, findCountryByPhoneCode } from './countries.ts';
import { isValidPhoneCode } from './validation.ts';

describe('countries (spec §3)', () => {
  it('has about 200 entries with United States first and default', () => {
    expect(COUNTRIES.length).toBeGreaterThanOrEqual(200);
    expect(COUNTRIES[0]).toEqual({ code: 'US', name: 'United States', phone_code: '1' });
    expect(DEFAULT_COUNTRY).toEqual(COUNTRIES[0]);
  });
  it('has unique ISO codes and valid phone codes', () => {
    expect(new Set(COUNTRIES.map((c) => c.code)).size).toBe(COUNTRIES.length);
    for (const c of COUNTRIES) {
      expect(c.code).toMatch(/^[A-Z]{2}$/);
      expect(isValidPhoneCode(c.phone_code), c.name).toBe(true);
    }
  });
  it.each([
    ['AF', '93'],
    ['AL', '355'],
    ['GB', '44'],
    ['IN', '91'],
    ['BS', '1-242'],
  ])('%s has phone code %s', (code, phone) => expect(findCountryByCode(code)?.phone_code).toBe(phone));
  it('finds by phone code with or without +', () => {
    expect(findCountryByPhoneCode('+91')?.code).toBe('IN');
    expect(findCountryByPhoneCode('1')?.code).toBe('US');
    expect(findCountryByPhoneCode('1-242')?.code).toBe('BS');
    expect(findCountryByPhoneCode('0')).toBeUndefined();
  });
  it('filters by name prefix, case-insensitively', () => {
    expect(filterCountries('ind').map((c) => c.code)).toEqual(['IN', 'ID']);
    expect(filterCountries('  UNITED ').map((c) => c.name)).toEqual(['United States', 'United Arab Emirates', 'United Kingdom']);
    expect(filterCountries('states')).toEqual([]);
  });
  it('filters by phone code prefix', () => {
    expect(filterCountries('+44').map((c) => c.code)).toEqual(['GG', 'IM', 'JE', 'GB']);
    expect(filterCountries('1-2').map((c) => c.code)).toEqual(['AI', 'AG', 'BS', 'BB', 'VG']);
    expect(filterCountries('35').every((c) => c.phone_code.startsWith('35'))).toBe(true);
  });
  it('an empty query lists everything', () => expect(filterCountries('')).toHaveLength(COUNTRIES.length));
});
