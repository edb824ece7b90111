import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { io as connect, type Socket } from 'socket.io-client';
import { buildTestApp, type TestApp } from '../../../../tests/helpers/test-app.ts';

// The socket server allows exactly the HTTP API's origins (PUBLIC_URL + CORS_ORIGINS).
let t: TestApp;
let base: string;
beforeAll(async () => {
  t = await buildTestApp({ PUBLIC_URL: 'https://agency.example', CORS_ORIGINS: 'https://app.partner.example' });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
});
afterAll(async () => t.close());

/** Connects as a browser on `origin` would (the Origin header is set by the browser, not the page). */
function connectFrom(origin: string, transport: 'websocket' | 'polling') {
  const socket: Socket = connect(base, {
    path: '/socket.io',
    transports: [transport],
    extraHeaders: { origin },
    reconnection: false,
    forceNew: true,
  });
  return new Promise<{ ok: boolean; error?: string }>((resolve) => {
    socket.once('connect', () => {
      socket.disconnect();
      resolve({ ok: true });
    });
    socket.once('connect_error', (err) => {
      socket.disconnect();
      resolve({ ok: false, error: err.message });
    });
  });
}

describe('socket.io origins', () => {
  for (const transport of ['websocket', 'polling'] as const) {
    it(`accepts PUBLIC_URL and CORS_ORIGINS and refuses a foreign origin (${transport})`, async () => {
      expect(await connectFrom('https://agency.example', transport)).toEqual({ ok: true });
      expect(await connectFrom('https://app.partner.example', transport)).toEqual({ ok: true });
      expect((await connectFrom('https://evil.example', transport)).ok).toBe(false);
    });
  }

  it('answers a polling preflight from an allowed origin with its CORS headers, and none for a foreign one', async () => {
    const allowed = await fetch(`${base}/socket.io/?EIO=4&transport=polling`, { headers: { origin: 'https://app.partner.example' } });
    expect(allowed.status).toBe(200);
    expect(allowed.headers.get('access-control-allow-origin')).toBe('https://app.partner.example');
    const foreign = await fetch(`${base}/socket.io/?EIO=4&transport=polling`, { headers: { origin: 'https://evil.example' } });
    expect(foreign.status).toBe(403);
    expect(foreign.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('lets clients that send no Origin (servers, apps) connect, as the HTTP API does', async () => {
    const socket = connect(base, { path: '/socket.io', transports: ['websocket'], reconnection: false, forceNew: true });
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', () => resolve());
      socket.once('connect_error', reject);
    });
    socket.disconnect();
  });
});
