// The feature cards' slide-in (spec §2/§9: in when 20 % visible, out when they leave). The cards
// are static markup (prerendered, no React on them), so a few lines of DOM code animate them.
const THRESHOLD = 0.2;

/** Starts watching the cards; returns the way to stop. */
export function enhanceFeatureCards(): () => void {
  const cards = document.querySelectorAll<HTMLElement>('.feature-card');
  if (!cards.length || typeof IntersectionObserver === 'undefined') return () => {};
  const observer = new IntersectionObserver(
    (entries) => {
      for (const e of entries) (e.target as HTMLElement).dataset.visible = String(e.isIntersecting);
    },
    { threshold: THRESHOLD },
  );
  for (const card of cards) observer.observe(card);
  return () => observer.disconnect();
}
