import { describe, expect, it } from 'vitest';
import { compileRouteMatcher, routePatterns } from './route-patterns.ts';

describe('route patterns', () => {
  it('flattens nested routes and leaves out the catch-all', () => {
    const table = [{ children: [{ path: '/' }, { path: 'about' }, { path: '/team', children: [{ path: ':id' }] }, { path: '*' }] }];
    expect(routePatterns(table)).toEqual(['/', '/about', '/team', '/team/:id']);
  });

  it("matches with React Router's rules", () => {
    const match = compileRouteMatcher(['/', '/about', '/status/:id', '/admin/*', '/docs/:page?']);
    for (const yes of ['/', '/about', '/About/', '/status/42', '/admin', '/admin/orders/7', '/docs', '/docs/intro'])
      expect(match(yes), yes).toBe(true);
    for (const no of ['/nope', '/status', '/status/42/x', '/about/x', '/docs/a/b', '/administrator']) expect(match(no), no).toBe(false);
  });
});
