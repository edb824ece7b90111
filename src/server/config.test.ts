import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, publicSiteConfig } from './config.ts';

describe('loadConfig', () => {
  it('works with no environment at all', () => {
    const c = loadConfig({});
    expect(c.PORT).toBe(3000);
    expect(c.publicUrl).toBe('http://localhost:3000');
    expect(c.DATA_DIR).toBe('./data');
  });

  it('names the variable that is wrong', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => loadConfig({ DATABASE_URL: 'not a url' })).toThrow(/DATABASE_URL/);
    expect(() => loadConfig({ NODE_ENV: 'staging' })).toThrow(/NODE_ENV/);
  });

  it('bounds open chat sockets per address at 20 unless told otherwise (decision 106)', () => {
    expect(loadConfig({}).CHAT_SOCKETS_MAX_PER_IP).toBe(20);
    expect(loadConfig({ CHAT_SOCKETS_MAX_PER_IP: '200' }).CHAT_SOCKETS_MAX_PER_IP).toBe(200);
    for (const bad of ['0', '-5', '2.5', 'many'])
      expect(() => loadConfig({ CHAT_SOCKETS_MAX_PER_IP: bad })).toThrow(/CHAT_SOCKETS_MAX_PER_IP/);
  });

  it('refuses test payments and the dev mailbox in production unless allowed', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(ConfigError);
    expect(() => loadConfig({ NODE_ENV: 'production', ALLOW_TEST_PAYMENTS: '1' })).toThrow(/SMTP_URL/);
    expect(loadConfig({ NODE_ENV: 'production', ALLOW_TEST_PAYMENTS: '1', ALLOW_DEV_MAILBOX: '1' }).isProduction).toBe(true);
  });

  it('gives the browser the phone country DEFAULT_PHONE_COUNTRY names, India unless told (docs/decisions/336-tracker-and-phone-country.md)', () => {
    expect(publicSiteConfig(loadConfig({})).defaultPhoneCountry).toEqual({ code: 'IN', name: 'India', phone_code: '91' });
    expect(publicSiteConfig(loadConfig({ DEFAULT_PHONE_COUNTRY: 'gb' })).defaultPhoneCountry).toEqual({
      code: 'GB',
      name: 'United Kingdom',
      phone_code: '44',
    });
    for (const bad of ['XX', 'India', '91']) expect(() => loadConfig({ DEFAULT_PHONE_COUNTRY: bad })).toThrow(/DEFAULT_PHONE_COUNTRY/);
  });

  it('never exposes secrets to the browser', () => {
    const c = loadConfig({ RAZORPAY_KEY_SECRET: 'shh-secret', LLM_API_KEY: 'sk-secret', SMTP_URL: 'smtp://u:pw-secret@h:25' });
    expect(JSON.stringify(publicSiteConfig(c))).not.toMatch(/secret/);
  });
});
