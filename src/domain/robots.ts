// robots.txt's Disallow list, one place for whoever writes the file (build or serve time): the
// signed-in pages, the back office, sign-in steps and the guest chat page — pages
// with nothing to index, or that create state.
export const ROBOTS_DISALLOW = [
  '/dashboard',
  '/pay',
  '/status/',
  '/getAllRecommendations',
  '/signup/enterDetails',
  '/googleLogin',
  '/microsoftLogin',
  '/logout',
  '/chat',
  '/admin',
  '/adminChat',
] as const;

export const robotsTxt = (publicUrl: string) =>
  `User-agent: *\nAllow: /\n${ROBOTS_DISALLOW.map((p) => `Disallow: ${p}\n`).join('')}\nSitemap: ${publicUrl}/sitemap.xml\n`;
