import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../../tests/helpers/test-app.ts';
import { startFakeGeo, type FakeGeo } from '../../../../tests/fakes/geo.ts';

let fake: FakeGeo;
let t: TestApp;

beforeAll(async () => {
  fake = await startFakeGeo({ places: { '203.0.113.7': { city: 'Paris', country: 'France' } } });
  t = await buildTestApp({
    GEOIP_URL: fake.geoipUrl,
    WEATHER_URL: fake.weatherUrl,
    WEATHER_API_KEY: fake.apiKey,
    // Generous for a busy CI machine, still well below the fake's slow mode.
    GEO_TIMEOUT_MS: '1000',
    TRUST_PROXY: '127.0.0.1',
  });
});
afterAll(async () => {
  await t.close();
  await fake.close();
});
beforeEach(() => {
  fake.state.mode = 'ok';
  fake.state.requests.length = 0;
});

const get = (ip: string) => t.app.inject({ method: 'GET', url: '/api/v1/geo/weather', headers: { 'x-forwarded-for': ip } });

describe('GET /api/v1/geo/weather', () => {
  it('locates the caller and reports metric weather with capitalised words and km/h', async () => {
    const res = await get('198.51.100.1');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      city: 'Bengaluru',
      country: 'India',
      description: 'Scattered Clouds',
      temp: 24.6,
      humidity: 61,
      wind: 12.6,
      icon: '03d',
      source: 'live',
    });
    expect(fake.state.requests).toEqual([
      '/json/198.51.100.1?fields=status,city,country',
      expect.stringMatching(/^\/weather\?q=Bengaluru&units=metric&appid=/),
    ]);
  });

  it('caches per IP and per city', async () => {
    await get('198.51.100.2');
    await get('198.51.100.2');
    await get('198.51.100.3');
    expect(fake.state.requests.filter((r) => r.startsWith('/weather'))).toHaveLength(0);
    expect(fake.state.requests.filter((r) => r.startsWith('/json'))).toHaveLength(2);
  });

  it('looks up the place once for every private or loopback address, and answers them from memory', async () => {
    const addresses = ['10.0.0.1', '10.1.2.3', '192.168.1.9', '172.16.0.5', '127.0.0.1', '::1'];
    const answers = [];
    for (const ip of addresses) answers.push(await get(ip));
    for (const a of answers) expect(a.statusCode).toBe(200);
    expect(answers[0]!.json()).toMatchObject({ city: 'Bengaluru', country: 'India', source: 'live' });
    expect(new Set(answers.map((a) => a.body)).size).toBe(1);
    // One look-up of the server's own place (the no-address form), one forecast at most.
    expect(fake.state.requests.filter((r) => r.startsWith('/json'))).toEqual(['/json?fields=status,city,country']);
    expect(fake.state.requests.filter((r) => r.startsWith('/weather')).length).toBeLessThanOrEqual(1);
    expect(answers[0]!.headers['cache-control']).toBe('private, max-age=600');
    expect(answers[0]!.headers['content-type']).toBe('application/json; charset=utf-8');
  });

  it('takes the client IP from X-Forwarded-For set by the configured proxy', async () => {
    const res = await get('203.0.113.7');
    expect(res.json()).toMatchObject({ city: 'Paris', country: 'France', description: 'Clear Sky', source: 'default' });
  });

  it.each(['error', 'slow', 'garbage'] as const)('falls back to Newyork and Clear Sky when the providers are %s', async (mode) => {
    fake.state.mode = mode;
    fake.state.slowMs = 4_000;
    const started = Date.now();
    const res = await get(`192.0.2.${mode.length}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      city: 'Newyork',
      country: null,
      description: 'Clear Sky',
      temp: null,
      humidity: null,
      wind: null,
      icon: '01d',
      source: 'default',
    });
    expect(Date.now() - started).toBeLessThan(3_500);
  });

  it('never sends the weather key to the browser', async () => {
    const res = await get('198.51.100.9');
    expect(res.body).not.toContain(fake.apiKey);
  });
});

describe('GET /api/v1/geo/weather without a weather key', () => {
  it('shows the located city with the default weather', async () => {
    const plain = await buildTestApp({ GEOIP_URL: fake.geoipUrl, WEATHER_URL: fake.weatherUrl, GEO_TIMEOUT_MS: '1000' });
    try {
      // No TRUST_PROXY: a forged X-Forwarded-For is ignored (the fake would answer Paris for it).
      const res = await plain.app.inject({ method: 'GET', url: '/api/v1/geo/weather', headers: { 'x-forwarded-for': '203.0.113.7' } });
      expect(res.json()).toMatchObject({ city: 'Bengaluru', description: 'Clear Sky', temp: null });
      expect(fake.state.requests.some((r) => r.startsWith('/weather'))).toBe(false);
    } finally {
      await plain.close();
    }
  });
});
