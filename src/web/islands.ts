import type { Trigger } from './islands/island.tsx';
import { ISLANDS } from './island-registry.ts';
import type { IslandName } from './islands/island-names.ts';
import { setAppLoader } from './islands/go-to-app.ts';
import { enhanceFeatureCards } from './features/landing/enhance-feature-cards.ts';
import { tokenStore } from './lib/api.ts';
import { storedChatId } from './lib/chat-storage.ts';
import { featuredPromotion } from './features/promotion/featured-promotion.ts';
import { popupOpens } from './features/promotion/popup-rule.ts';
import { clearanceStyle, watchClearOfPrimaryActions } from './components/clear-of-primary-actions.ts';

// Entry of the prerendered public pages (docs/decisions/074): no router, no app shell. Each island
// of the page becomes its own small React root when its moment comes (see Trigger in islands/island.tsx); the rest of
// the page is plain HTML. React itself loads with the first React island that needs it: only when
// the visitor does something (or is signed in, or has a chat). What a page shows before that is
// done by DOM islands, plain DOM code without React (docs/decisions/115).

// The router app loads only when an island hands over to it (goToApp).
setAppLoader(() => import('./app.tsx'));

const INTERACTIONS = ['pointerdown', 'pointerover', 'focusin', 'input', 'keydown', 'touchstart'] as const;

/** What the visitor did to an island before React was there, done again once it is. */
interface Pending {
  button?: HTMLButtonElement;
  form?: HTMLFormElement;
}
const pending = new WeakMap<HTMLElement, Pending>();

/** Loads React and the island's chunk and hydrates it; a failed load is retried once, then the island stays plain HTML
 * until the next try (a click or submit in it). */
function hydrate(el: HTMLElement) {
  if (el.dataset.hydrating) return;
  const load = ISLANDS[el.dataset.island as IslandName];
  if (!load) return;
  el.dataset.hydrating = 'true';
  const props = JSON.parse(el.dataset.props ?? '{}') as object;
  if ('dom' in load) {
    // A chunk of a few hundred bytes, no React; one more try after a moment if it fails to load.
    load
      .dom()
      .catch(() => new Promise((r) => setTimeout(r, 1000)).then(load.dom))
      .then((run) => {
        run(el, props);
        el.dataset.hydrated = 'true';
      })
      .catch((err: unknown) => {
        delete el.dataset.hydrating;
        console.error(`island ${el.dataset.island ?? ''} could not load`, err);
      });
    return;
  }
  const attempt = () => Promise.all([import('./islands/hydrate-island.tsx'), load.react()]);
  // A chunk can fail to load (a deploy replaced it, a flaky network): one more try after a moment.
  attempt()
    .catch(() => new Promise((r) => setTimeout(r, 1000)).then(attempt))
    .then(([{ hydrateIsland }, Component]) => {
      // React takes over from here: what the plain page did for it stops (keepClear below).
      beforeHydration.get(el)?.();
      let replayed = false;
      hydrateIsland(el, Component, props, () => {
        if (replayed) return;
        replayed = true;
        replayTypedValues(el);
        const todo = pending.get(el);
        pending.delete(el);
        // After React has rendered the replayed values (their updates flush in a microtask).
        if (todo) setTimeout(() => (todo.button ? todo.button.click() : todo.form?.requestSubmit()), 0);
      });
      el.dataset.hydrated = 'true';
    })
    .catch((err: unknown) => {
      // The island keeps its prerendered markup; a form still refuses to submit natively (see below).
      // The next click or submit in it tries again.
      delete el.dataset.hydrating;
      console.error(`island ${el.dataset.island ?? ''} could not load`, err);
    });
}

/**
 * Text typed before hydration is in the DOM but not in React's state (React reads an input's value
 * at hydration and would not see it change): it is handed to React as an input event, through
 * React's own value tracker so that its onChange fires.
 */
function replayTypedValues(el: HTMLElement) {
  for (const field of el.querySelectorAll<HTMLInputElement | HTMLTextAreaElement>('input, textarea')) {
    if (field instanceof HTMLInputElement && /^(checkbox|radio|file|submit|button|hidden)$/.test(field.type)) continue;
    const typed = field.value;
    if (typed === field.defaultValue) continue; // React keeps defaultValue equal to its state
    field.value = field.defaultValue; // through React's tracker
    Object.getOwnPropertyDescriptor(Object.getPrototypeOf(field) as object, 'value')?.set?.call(field, typed);
    field.dispatchEvent(new Event('input', { bubbles: true }));
  }
}

/**
 * An island hydrated on first interaction. Until React is there it is plain HTML: a click on one of
 * its buttons and a form submit are held (a form never submits natively, which would put the
 * visitor's details into the URL) and done again once React is there.
 */
function onInteraction(el: HTMLElement) {
  const start = () => {
    for (const type of INTERACTIONS) el.removeEventListener(type, start, { capture: true });
    hydrate(el);
  };
  for (const type of INTERACTIONS) el.addEventListener(type, start, { passive: true, capture: true });
  el.addEventListener(
    'click',
    (e) => {
      if (el.dataset.hydrated) return;
      const button = (e.target as HTMLElement).closest('button');
      if (!button) return;
      if (button.type === 'submit') e.preventDefault();
      const todo = pending.get(el) ?? {};
      todo.button ??= button;
      pending.set(el, todo);
      hydrate(el);
    },
    true,
  );
  el.addEventListener(
    'submit',
    (e) => {
      if (el.dataset.hydrated) return;
      e.preventDefault();
      const todo = pending.get(el) ?? {};
      if (!todo.button) todo.form = e.target as HTMLFormElement;
      pending.set(el, todo);
      hydrate(el);
    },
    true,
  );
}

const nearViewport =
  typeof IntersectionObserver === 'undefined'
    ? null
    : new IntersectionObserver(
        (entries) => {
          for (const e of entries) {
            if (!e.isIntersecting) continue;
            const island = e.target.closest<HTMLElement>('[data-island]')!;
            for (const watched of boxesOf(island)) nearViewport?.unobserve(watched);
            hydrate(island);
          }
        },
        { rootMargin: '200px' },
      );

/** What an observer can see of an island: a `display: contents` element has no box of its own. */
const boxesOf = (el: HTMLElement): Element[] => (el.classList.contains('contents') ? [...el.children] : [el]);

/** Undoes what the plain page did for an island, right before React hydrates it. */
const beforeHydration = new WeakMap<HTMLElement, () => void>();

/**
 * A floating button of a prerendered island (`data-keep-clear`: Help & Support) keeps clear of the
 * primary actions before React is there, as LauncherButton does after (clear-of-primary-actions.ts).
 */
function keepClear(el: HTMLElement) {
  const button = el.querySelector<HTMLElement>('[data-keep-clear]');
  if (!button) return;
  const stop = watchClearOfPrimaryActions(button, (c) => {
    button.removeAttribute('style');
    Object.assign(button.style, clearanceStyle(c));
  });
  beforeHydration.set(el, () => {
    stop();
    button.removeAttribute('style'); // React's own measure sets it again
  });
}

const signedIn = Boolean(tokenStore.get());
const onScroll: HTMLElement[] = [];
for (const el of document.querySelectorAll<HTMLElement>('[data-island]')) {
  const triggers = (el.dataset.hydrate ?? 'load').split(' ') as Trigger[];
  const has = (t: Trigger) => triggers.includes(t);
  if (has('load') || (has('session') && signedIn) || (has('chat') && storedChatId())) {
    hydrate(el);
    continue;
  }
  keepClear(el);
  if (has('interaction')) onInteraction(el);
  if (has('visible')) {
    const boxes = boxesOf(el);
    if (nearViewport && boxes.length) boxes.forEach((box) => nearViewport.observe(box));
    else hydrate(el);
  }
  if (has('scroll')) onScroll.push(el);
  if (has('promotion')) {
    const entryPath = window.location.pathname;
    void featuredPromotion().then((p) => popupOpens(p, entryPath, Date.now()) && hydrate(el));
  }
  // Without a featured promotion the island's frame goes (as the component itself would render nothing).
  if (has('featured')) void featuredPromotion().then((p) => (p ? hydrate(el) : el.replaceChildren()));
}
if (onScroll.length) window.addEventListener('scroll', () => onScroll.forEach(hydrate), { once: true, passive: true });

enhanceFeatureCards();
