// Configuration at serve time. The prerender renders the public pages, robots.txt and
// sitemap.xml with these sentinel values in place of PUBLIC_URL and the site's text settings; the
// server replaces them with the running configuration once, at start-up, then compresses and serves
// the result from memory (src/server/plugins/web.ts). Change PUBLIC_URL or a BRAND_* / SOCIAL_*
// variable and restart: every canonical, og:url, JSON-LD and sitemap URL follows, no rebuild.
//
// The contract with the page components is that they place these values in the page as they are.
// One derived form is known: the phone's `tel:` link keeps only digits and '+', which is why the
// phone sentinel is made of digits. The prerender checks the contract for every page (a render with
// sentinels, substituted, must equal a render with the values themselves) and fails the build
// otherwise, naming the page.
import type { PublicSiteConfig } from '../../contract/site.ts';

export const PUBLIC_URL_SENTINEL = '@@PUBLIC_URL@@';
const PHONE_SENTINEL = '+99000990009900';

type TextKey = 'brand' | 'address' | 'email' | 'founder' | 'invoiceRetentionYears' | 'taxNote' | 'maintenancePrice';
const TEXT_KEYS: readonly TextKey[] = ['brand', 'address', 'email', 'founder', 'invoiceRetentionYears', 'taxNote', 'maintenancePrice'];
const SOCIAL_KEYS = ['whatsapp', 'facebook', 'linkedin', 'youtube', 'twitter', 'instagram'] as const;

const sentinel = (key: string) => `@@site.${key}@@`;

/** The site configuration to prerender with: text settings replaced by sentinels, switches kept. */
export function sentinelSite(site: PublicSiteConfig): PublicSiteConfig {
  const out: PublicSiteConfig = { ...site, phone: PHONE_SENTINEL, social: { ...site.social } };
  for (const key of TEXT_KEYS) out[key] = sentinel(key);
  for (const key of SOCIAL_KEYS) out.social[key] = sentinel(`social.${key}`);
  return out;
}

/** Sentinel → value, in the order they must be replaced (the tel: form before the plain phone). */
function replacements(site: PublicSiteConfig, publicUrl: string): [string, string][] {
  return [
    [`tel:${PHONE_SENTINEL}`, `tel:${site.phone.replace(/[^\d+]/g, '')}`],
    [PHONE_SENTINEL, site.phone],
    ...TEXT_KEYS.map((k): [string, string] => [sentinel(k), site[k]]),
    ...SOCIAL_KEYS.map((k): [string, string] => [sentinel(`social.${k}`), site.social[k]]),
    [PUBLIC_URL_SENTINEL, publicUrl.replace(/\/$/, '')],
  ];
}

// The same escaping React applies to text and attribute values.
const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#x27;' })[c]!);
// Inside a JSON string in a <script> element: JSON escapes, and '<' so no value can close it.
const escapeJson = (s: string) => JSON.stringify(s).slice(1, -1).replace(/</g, '\\u003c');

function replaceAll(text: string, pairs: [string, string][]): string {
  let out = text;
  for (const [from, to] of pairs) out = out.split(from).join(to);
  return out;
}

/**
 * Replaces the sentinels of a prerendered file with the running configuration. `html`: escaped for
 * HTML outside <script> elements and as JSON string content inside them (JSON-LD); `xml`: escaped
 * for XML; `text`: as is (robots.txt).
 */
export function substituteSite(content: string, kind: 'html' | 'xml' | 'text', site: PublicSiteConfig, publicUrl: string): string {
  if (!content.includes('@@') && !content.includes(PHONE_SENTINEL)) return content;
  const pairs = replacements(site, publicUrl);
  const as = (escape: (s: string) => string) => pairs.map(([from, to]): [string, string] => [from, escape(to)]);
  if (kind === 'text')
    return replaceAll(
      content,
      as((s) => s),
    );
  if (kind === 'xml') return replaceAll(content, as(escapeHtml));
  const html = as(escapeHtml);
  const json = as(escapeJson);
  // Script elements (JSON-LD) alternate with markup: odd parts of the split are script bodies.
  return content
    .split(/(<script\b[^>]*>[\s\S]*?<\/script>)/i)
    .map((part, i) => replaceAll(part, i % 2 === 1 ? json : html))
    .join('');
}

/** True when a text still holds a sentinel (a component changed a value instead of placing it). */
export const hasSentinel = (text: string) => /@@(site\.[\w.]+|PUBLIC_URL)@@/.test(text) || text.includes(PHONE_SENTINEL);
