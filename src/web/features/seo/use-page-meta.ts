import { useEffect } from 'react';
import { siteConfig } from '../../lib/site-config.ts';
import { metaFor } from './page-meta.ts';

function setMeta(selector: string, attr: 'content' | 'href', value: string) {
  const el = document.head.querySelector(selector);
  if (el) el.setAttribute(attr, value);
}

/**
 * Keeps <title>, the description, canonical and Open Graph tags right after client-side
 * navigation; the prerendered HTML already carries them for the first load and for crawlers.
 */
export function usePageMeta(path: string) {
  useEffect(() => {
    const meta = metaFor(path, siteConfig().brand);
    if (!meta) return;
    document.title = meta.title;
    const url = `${window.location.origin}${path}`;
    setMeta('meta[name="description"]', 'content', meta.description);
    setMeta('meta[property="og:title"]', 'content', meta.title);
    setMeta('meta[property="og:description"]', 'content', meta.description);
    setMeta('meta[property="og:url"]', 'content', url);
    setMeta('link[rel="canonical"]', 'href', url);
  }, [path]);
}
