import type { Trigger } from './islands/island.tsx';
import { ISLANDS, type IslandName } from './islands/registry.ts';
import { enhanceFeatureCards } from './features/landing/enhance-feature-cards.ts';
import { tokenStore } from './lib/api.ts';
import { storedChatId } from './features/chat/chat-storage.ts';
import { featuredPromotion } from './features/promotion/featured-promotion.ts';
import { popupOpens } from './features/promotion/popup-rule.ts';

// Entry of the prerendered public pages (docs/decisions/074): no router, no app shell. Each island
// of the page becomes its own small React root when its moment comes (see Trigger in islands/island.tsx); the rest of
// the page is plain HTML. React itself loads with the first island that needs it.

const INTERACTIONS = ['pointerdown', 'pointerover', 'focusin', 'keydown', 'touchstart'] as const;

function hydrate(el: HTMLElement) {
  if (el.dataset.hydrating) return;
  el.dataset.hydrating = 'true';
  const load = ISLANDS[el.dataset.island as IslandName];
  if (!load) return;
  const props = JSON.parse(el.dataset.props ?? '{}') as object;
  // React and the island's code load only now, together.
  void Promise.all([import('./islands/hydrate-island.tsx'), load()]).then(([{ hydrateIsland }, Component]) => {
    let replayed = false;
    hydrateIsland(el, Component, props, () => {
      // A button clicked while the island was still plain HTML gets its click now that React is there.
      const pending = clicked.get(el);
      if (pending && !replayed) pending.click();
      replayed = true;
    });
    el.dataset.hydrated = 'true';
  });
}

const clicked = new WeakMap<HTMLElement, HTMLElement>();

function onInteraction(el: HTMLElement) {
  const start = () => {
    for (const type of INTERACTIONS) el.removeEventListener(type, start);
    hydrate(el);
  };
  for (const type of INTERACTIONS) el.addEventListener(type, start, { passive: true });
  el.addEventListener('click', (e) => {
    const button = (e.target as HTMLElement).closest('button');
    if (button && !el.dataset.hydrated && !clicked.has(el)) clicked.set(el, button);
  });
}

const nearViewport =
  typeof IntersectionObserver === 'undefined'
    ? null
    : new IntersectionObserver(
        (entries) => {
          for (const e of entries) {
            if (!e.isIntersecting) continue;
            nearViewport?.unobserve(e.target);
            hydrate(e.target as HTMLElement);
          }
        },
        { rootMargin: '200px' },
      );

const signedIn = Boolean(tokenStore.get());
const onScroll: HTMLElement[] = [];
const onIdle: HTMLElement[] = [];
for (const el of document.querySelectorAll<HTMLElement>('[data-island]')) {
  const triggers = (el.dataset.hydrate ?? 'load').split(' ') as Trigger[];
  const has = (t: Trigger) => triggers.includes(t);
  if (has('load') || (has('session') && signedIn) || (has('chat') && storedChatId())) {
    hydrate(el);
    continue;
  }
  if (has('interaction')) onInteraction(el);
  if (has('visible')) nearViewport?.observe(el);
  if (has('scroll')) onScroll.push(el);
  if (has('idle')) onIdle.push(el);
  if (has('promotion')) {
    const entryPath = window.location.pathname;
    void featuredPromotion().then((p) => popupOpens(p, entryPath, Date.now()) && hydrate(el));
  }
}
if (onScroll.length) window.addEventListener('scroll', () => onScroll.forEach(hydrate), { once: true, passive: true });
if (onIdle.length) {
  const idle = () => onIdle.forEach(hydrate);
  const whenIdle = () => ('requestIdleCallback' in window ? requestIdleCallback(idle, { timeout: 2000 }) : setTimeout(idle, 200));
  if (document.readyState === 'complete') whenIdle();
  else window.addEventListener('load', whenIdle, { once: true });
}

enhanceFeatureCards();
