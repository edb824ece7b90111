// The page routes of the web app's route table (src/web/routes.tsx), as plain path patterns the
// server can match without loading React. The prerender writes them into the build's manifest
// (scripts/prerender.mjs), so the table is written once, in routes.tsx.

/** The part of a React Router route object this module reads. */
export interface RouteLike {
  path?: string;
  children?: RouteLike[];
}

/**
 * Every path pattern of a route table, parents joined to children ('/status/:id', '/admin/*').
 * The bare catch-all '*' is left out: it is the not-found page, not a page of its own.
 */
export function routePatterns(routes: readonly RouteLike[], parent = ''): string[] {
  const out: string[] = [];
  for (const route of routes) {
    const own = route.path ?? '';
    const joined = own.startsWith('/') ? own : own ? `${parent.replace(/\/$/, '')}/${own}` : parent;
    if (route.path !== undefined && joined !== '*' && joined !== '/*') out.push(joined || '/');
    if (route.children) out.push(...routePatterns(route.children, joined));
  }
  return [...new Set(out)];
}

type Segment = { kind: 'static'; value: string } | { kind: 'param'; optional: boolean } | { kind: 'splat' };

const parse = (pattern: string): Segment[] =>
  pattern
    .split('/')
    .filter(Boolean)
    .map((s): Segment => {
      if (s === '*') return { kind: 'splat' };
      if (s.startsWith(':')) return { kind: 'param', optional: s.endsWith('?') };
      return { kind: 'static', value: s.toLowerCase() };
    });

function matches(segments: Segment[], parts: string[], i = 0, j = 0): boolean {
  if (i === segments.length) return j === parts.length;
  const seg = segments[i]!;
  if (seg.kind === 'splat') return true; // React Router: '/admin/*' also matches '/admin'
  if (seg.kind === 'param') {
    if (j < parts.length && matches(segments, parts, i + 1, j + 1)) return true;
    return seg.optional && matches(segments, parts, i + 1, j);
  }
  return j < parts.length && parts[j] === seg.value && matches(segments, parts, i + 1, j + 1);
}

/**
 * A matcher with React Router's rules for these patterns: case-insensitive static segments, a
 * trailing slash ignored, ':param' one non-empty segment (optional with '?'), '*' the rest.
 * `path` is the decoded path without query string.
 */
export function compileRouteMatcher(patterns: readonly string[]): (path: string) => boolean {
  const compiled = patterns.map(parse);
  return (path) => {
    const parts = path.toLowerCase().split('/').filter(Boolean);
    return compiled.some((segments) => matches(segments, parts));
  };
}
