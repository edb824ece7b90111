import { describe, expect, it } from 'vitest';
import { robotsTxt } from './robots.ts';

describe('robots.txt', () => {
  it('disallows /chat and the signed-in pages', () => {
    const txt = robotsTxt('https://agency.example');
    for (const p of ['/chat', '/dashboard', '/pay', '/status/', '/getAllRecommendations', '/admin', '/adminChat'])
      expect(txt).toContain(`Disallow: ${p}\n`);
    expect(txt).toContain('Sitemap: https://agency.example/sitemap.xml');
  });
});
