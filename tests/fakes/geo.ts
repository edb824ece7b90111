import { createServer, type Server } from 'node:http';

export interface FakeGeoOptions {
  port?: number;
  /** IP → place; any other IP (and the no-IP "locate the caller" form) gets `defaultPlace`. */
  places?: Record<string, { city: string; country: string }>;
  defaultPlace?: { city: string; country: string } | null;
  /** city (lower case) → OpenWeatherMap-like weather; unknown cities get 404 like the real API. */
  weather?: Record<string, { description: string; icon: string; temp: number; humidity: number; speed: number }>;
  apiKey?: string;
}

/**
 * One local HTTP server speaking both providers' protocols:
 *   GET /json[/{ip}]?fields=… — ip-api.com ({status:'success', city, country} | {status:'fail'})
 *   GET /weather?q=&units=metric&appid= — OpenWeatherMap current weather
 * Tests can make it slow or failing, and read the requests it received.
 */
export async function startFakeGeo(opts: FakeGeoOptions = {}) {
  const state = {
    mode: 'ok' as 'ok' | 'error' | 'slow' | 'garbage',
    slowMs: 5_000,
    requests: [] as string[],
  };
  const places = opts.places ?? {};
  const defaultPlace = opts.defaultPlace === undefined ? { city: 'Bengaluru', country: 'India' } : opts.defaultPlace;
  const weather = opts.weather ?? {
    bengaluru: { description: 'scattered clouds', icon: '03d', temp: 24.6, humidity: 61, speed: 3.5 },
    'new york': { description: 'light rain', icon: '10n', temp: 8.2, humidity: 80, speed: 5 },
  };
  const apiKey = opts.apiKey ?? 'test-weather-key';

  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    state.requests.push(`${url.pathname}${url.search}`);
    const send = (status: number, body: unknown) => {
      if (state.mode === 'garbage') {
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"weather": "<not json');
        return;
      }
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    };
    const answer = () => {
      if (state.mode === 'error') return send(500, { message: 'boom' });
      if (url.pathname === '/json' || url.pathname.startsWith('/json/')) {
        const ip = decodeURIComponent(url.pathname.slice('/json/'.length));
        const place = (ip && places[ip]) || defaultPlace;
        return send(200, place ? { status: 'success', ...place } : { status: 'fail', message: 'private range' });
      }
      if (url.pathname === '/weather') {
        if (url.searchParams.get('appid') !== apiKey) return send(401, { cod: 401, message: 'Invalid API key' });
        if (url.searchParams.get('units') !== 'metric') return send(400, { cod: 400, message: 'units' });
        const w = weather[(url.searchParams.get('q') ?? '').toLowerCase()];
        if (!w) return send(404, { cod: '404', message: 'city not found' });
        return send(200, {
          weather: [{ id: 800, main: 'x', description: w.description, icon: w.icon }],
          main: { temp: w.temp, humidity: w.humidity, pressure: 1012 },
          wind: { speed: w.speed, deg: 90 },
          name: url.searchParams.get('q'),
          cod: 200,
        });
      }
      return send(404, { message: 'not found' });
    };
    if (state.mode === 'slow') setTimeout(answer, state.slowMs);
    else answer();
  });
  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return {
    geoipUrl: `http://127.0.0.1:${port}/json`,
    weatherUrl: `http://127.0.0.1:${port}/weather`,
    apiKey,
    state,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export type FakeGeo = Awaited<ReturnType<typeof startFakeGeo>>;
