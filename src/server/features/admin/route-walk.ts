import type { FastifyInstance } from 'fastify';

export interface RegisteredRoute {
  method: string;
  url: string;
}

/**
 * Every route the app has registered, read from Fastify's own route tree (printRoutes), so a test
 * can walk them all — including routes added later by anyone, in any plugin.
 */
export function registeredRoutes(app: FastifyInstance): RegisteredRoute[] {
  const out: RegisteredRoute[] = [];
  const stack: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const m = /^((?:│ {3}| {4})*)(?:├── |└── )(\S+)(?: \(([^)]*)\))?\s*$/u.exec(line);
    if (!m) continue;
    const depth = m[1]!.length / 4;
    const url = (depth > 0 ? stack[depth - 1]! : '') + m[2]!;
    stack[depth] = url;
    stack.length = depth + 1;
    for (const method of (m[3] ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean)) {
      if (method !== 'HEAD' && method !== 'OPTIONS') out.push({ method, url: registeredSpelling(app, method, url) });
    }
  }
  return out;
}

/**
 * Routes that name the same path parameter differently (`/orders/:id` and `/orders/:orderId/files`)
 * share one node of the tree, printed `:id|:orderId`: the route's own spelling is the combination
 * whose names are the ones Fastify reports for it.
 */
function registeredSpelling(app: FastifyInstance, method: string, url: string): string {
  if (!url.includes('|')) return url;
  let candidates = [''];
  for (const part of url.split(/(:[\w|:]+)/)) {
    const options = part.startsWith(':') ? part.split('|') : [part];
    candidates = candidates.flatMap((c) => options.map((o) => c + o));
  }
  // Matching the pattern itself as a URL yields the route's own parameter names.
  const names = (c: string) => [...c.matchAll(/:(\w+)/g)].map((x) => x[1]).join();
  return candidates.find((c) => Object.keys(app.findRoute({ method: method as 'GET', url: c })?.params ?? {}).join() === names(c)) ?? url;
}
