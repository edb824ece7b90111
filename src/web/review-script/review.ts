import { finder } from '@medv/finder';
import { SITE_PIN_FRAGMENT, SITE_TOKEN_FRAGMENT, SITE_TOKEN_PATTERN } from '../../contract/site-review-fragment.ts';
import type { SiteComment, SiteCommentResponse, SiteCommentsResponse } from '../../contract/site-review.ts';
import { describeBrowser } from './browser-name.ts';
import { PAGE_STYLES, STYLES } from './styles.ts';

// review.js (decisions 240, 241): added once to a staging site with <script async>. Without a
// site token it does nothing — no toolbar, no request. With one (#wc-review=… from "Review the live
// site"), it takes the token out of the address bar at once, keeps it in this tab's sessionStorage,
// and lets the reviewer pin comments on elements of the page.

declare const __SHOT_CHUNK__: string;

// The contract's types only (type-only imports: esbuild drops them, so zod never enters review.js).
type Pin = SiteComment;

const KEY = 'wc-review-token';
const src = (document.currentScript as HTMLScriptElement | null)?.src ?? '';

/** The token from the fragment (then removed from the address bar and history) or this tab's storage. */
function takeToken(): string | null {
  const params = new URLSearchParams(location.hash.slice(1));
  const fresh = params.get(SITE_TOKEN_FRAGMENT);
  if (fresh !== null) {
    params.delete(SITE_TOKEN_FRAGMENT);
    const rest = params.toString();
    history.replaceState(history.state, '', location.pathname + location.search + (rest ? `#${rest}` : ''));
    if (SITE_TOKEN_PATTERN.test(fresh)) sessionStorage.setItem(KEY, fresh);
  }
  const token = sessionStorage.getItem(KEY);
  return token && SITE_TOKEN_PATTERN.test(token) ? token : null;
}

const token = src ? takeToken() : null;
if (token) start(token, new URL(src).origin);

function start(token: string, api: string) {
  const pageUrl = () => location.href.split('#')[0]!;
  const request = async (path: string, init: RequestInit = {}) => {
    const res = await fetch(`${api}/api/v1/site-review/${path}`, {
      ...init,
      mode: 'cors',
      credentials: 'omit',
      referrerPolicy: 'no-referrer',
      headers: { authorization: `Bearer ${token}`, ...(init.body ? { 'content-type': 'application/json' } : {}) },
    });
    if (res.status === 401) {
      end('This review link has expired or the round was decided. Open "Review the live site" from your order again.');
      throw new Error(hint.textContent ?? '');
    }
    if (!res.ok) throw new Error(((await res.json().catch(() => null)) as { message?: string } | null)?.message ?? `Error ${res.status}`);
    return res;
  };

  const host = document.createElement('wc-site-review');
  host.setAttribute('data-wc-review', '');
  const root = host.attachShadow({ mode: 'open' });
  const sheet = (css: string) => {
    const s = new CSSStyleSheet();
    s.replaceSync(css);
    return s;
  };
  root.adoptedStyleSheets = [sheet(STYLES)];
  document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet(PAGE_STYLES)];
  root.innerHTML =
    `<div class="layer" part="layer"></div><section class="bar" role="region" aria-label="Website review"><p ` +
    `class="title"><b></b> <span class="state"></span></p><p class="hint" role="status" aria-live="polite"></p><div ` +
    `class="btns"><button type="button" data-a="comment" aria-pressed="false">Comment</button>` +
    `<button type="button" data-a="pins" aria-pressed="true">Show pins</button><button type="button" data-a="done">Done</button></div>` +
    `<button type="button" data-a="hide" class="fold" aria-label="Hide the review toolbar">▾</button>` +
    `<div class="gone" hidden><p>Moved or removed</p><ol></ol></div></section>` +
    `<button type="button" class="handle" hidden aria-label="Open the review toolbar">Review <span></span></button>`;
  document.body.append(host);
  const $ = <T extends Element>(sel: string) => root.querySelector(sel) as T;
  const layer = $<HTMLDivElement>('.layer');
  const hint = $<HTMLParagraphElement>('.hint');
  const bar = $<HTMLElement>('.bar');
  const handle = $<HTMLButtonElement>('.handle');
  const say = (text: string) => (hint.textContent = text);
  let pins: Pin[] = [];
  let commenting = false;
  let showing = true;
  let highlight = new URLSearchParams(location.hash.slice(1)).get(SITE_PIN_FRAGMENT);

  // Open, the toolbar sits over the page's bottom: the page gets that much more bottom padding, so
  // every element can be scrolled above it and pinned. Collapsed, it is a small handle (and as much
  // padding). Kept in this tab; on a touch screen it starts collapsed once the page has a pin.
  const touch = matchMedia('(pointer: coarse)').matches;
  const bodyStyle = document.body.style;
  const bodyPad = [bodyStyle.getPropertyValue('padding-bottom'), bodyStyle.getPropertyPriority('padding-bottom')] as const;
  const basePad = parseFloat(getComputedStyle(document.body).paddingBottom) || 0;
  let open = true;
  let padded = -1;
  function pad() {
    const r = (open ? bar : handle).getBoundingClientRect();
    const need = host.isConnected && r.height ? Math.max(0, Math.ceil(innerHeight - r.top)) : 0;
    if (need === padded) return;
    // Scrolled to the end, the end stays in view when the toolbar grows (a hint line, the list).
    const atEnd = padded >= 0 && Math.ceil(scrollY + innerHeight) >= document.documentElement.scrollHeight - 1;
    const grew = need - padded;
    bodyStyle.setProperty('padding-bottom', `${basePad + (padded = need)}px`, 'important');
    if (atEnd && grew > 0) scrollBy(0, grew);
  }
  function setOpen(on: boolean, keep = true) {
    open = on;
    bar.hidden = !on;
    handle.hidden = on;
    if (keep) sessionStorage.setItem(`${KEY}-open`, String(on));
    if (!on && commenting) setCommenting(false);
    pad();
  }
  const kept = sessionStorage.getItem(`${KEY}-open`);
  if (kept) setOpen(kept === 'true', false);
  const sizes = new ResizeObserver(pad);
  sizes.observe(bar);
  sizes.observe(handle);

  function end(message?: string) {
    sessionStorage.removeItem(KEY);
    setCommenting(false);
    if (message) {
      setOpen(true, false);
      root.querySelector('.btns')?.remove();
      root.querySelector('.fold')?.remove();
      root.querySelector('.gone')?.remove();
      layer.replaceChildren();
      say(message);
    } else {
      host.remove();
      bodyStyle.setProperty('padding-bottom', ...bodyPad);
    }
  }

  const buttons = root.querySelectorAll<HTMLButtonElement>('button');
  const button = (a: string) => [...buttons].find((b) => b.dataset.a === a)!;
  function setCommenting(on: boolean) {
    commenting = on;
    button('comment').setAttribute('aria-pressed', String(on));
    document.documentElement.classList.toggle('wc-review-commenting', on);
    say(on ? 'Click or tap the element to comment on (or focus it and press Enter).' : '');
  }
  button('comment').onclick = () => setCommenting(!commenting);
  button('pins').onclick = () => {
    showing = !showing;
    button('pins').setAttribute('aria-pressed', String(showing));
    place();
  };
  button('done').onclick = () => end();
  button('hide').onclick = () => setOpen(false);
  handle.onclick = () => setOpen(true);

  const elementOf = (p: Pin): Element | null => {
    try {
      return document.querySelector(p.selector);
    } catch {
      return null;
    }
  };

  /** Markers follow their elements; pins whose element is gone are listed with their screenshot. */
  function place() {
    const label = `Open the review toolbar (${pins.length} pin${pins.length === 1 ? '' : 's'} on this page)`;
    if (handle.getAttribute('aria-label') !== label) {
      handle.lastElementChild!.textContent = `· ${pins.length}`;
      handle.setAttribute('aria-label', label);
    }
    pad();
    layer.replaceChildren();
    const gone: Pin[] = [];
    pins.forEach((p, i) => {
      const el = elementOf(p);
      if (!el) return gone.push(p);
      if (!showing) return;
      const r = el.getBoundingClientRect();
      const m = document.createElement('button');
      m.type = 'button';
      m.className = `pin${p.resolved ? ' done' : ''}${p.id === highlight ? ' hl' : ''}`;
      m.textContent = String(i + 1);
      m.title = p.text;
      m.setAttribute('aria-label', `Pin ${i + 1}: ${p.text}`);
      m.style.left = `${r.left + p.x * r.width}px`;
      m.style.top = `${r.top + p.y * r.height}px`;
      m.onclick = () => say(`${i + 1}. ${p.text}`);
      layer.append(m);
    });
    const list = $<HTMLDivElement>('.gone');
    list.hidden = gone.length === 0;
    const ol = list.querySelector('ol')!;
    ol.replaceChildren(
      ...gone.map((p) => {
        const li = document.createElement('li');
        li.textContent = `${pins.indexOf(p) + 1}. ${p.text}`;
        if (p.screenshotFileId) void screenshot(p.screenshotFileId).then((img) => img && li.append(img));
        return li;
      }),
    );
  }
  const shots = new Map<string, Promise<HTMLImageElement | null>>();
  const screenshot = (id: string) => {
    if (!shots.has(id)) {
      shots.set(
        id,
        request(`screenshots/${encodeURIComponent(id)}`)
          .then(async (res) => {
            const img = document.createElement('img');
            img.alt = 'Screenshot when the pin was dropped';
            img.src = URL.createObjectURL(await res.blob());
            return img;
          })
          .catch(() => null),
      );
    }
    return shots.get(id)!;
  };

  let frame = 0;
  const schedule = () => {
    if (!frame) frame = requestAnimationFrame(() => ((frame = 0), place()));
  };
  addEventListener('scroll', schedule, { capture: true, passive: true });
  addEventListener('resize', schedule);
  setInterval(schedule, 1000);

  async function load() {
    const body = (await (await request(`comments?page=${encodeURIComponent(pageUrl())}`)).json()) as SiteCommentsResponse;
    $('.title b').textContent = body.round.title;
    $('.state').textContent = body.round.state === 'open' ? '· open for comments' : `· ${body.round.state.replace('_', ' ')}`;
    pins = body.comments;
    if (!kept) setOpen(!(touch && pins.length), false);
    place();
    const target = pins.find((p) => p.id === highlight);
    const el = target && elementOf(target);
    if (el) el.scrollIntoView({ block: 'center' });
    else if (highlight) say("This pin's element moved or was removed: see the list below.");
  }

  /** The form for one pin, next to where it was dropped. */
  function ask(el: Element, clientX: number, clientY: number) {
    setCommenting(false);
    const r = el.getBoundingClientRect();
    const x = r.width ? Math.min(1, Math.max(0, (clientX - r.left) / r.width)) : 0.5;
    const y = r.height ? Math.min(1, Math.max(0, (clientY - r.top) / r.height)) : 0.5;
    const form = document.createElement('form');
    form.className = 'ask';
    form.style.left = `${Math.min(clientX, innerWidth - 290)}px`;
    form.style.top = `${Math.min(clientY + 16, innerHeight - 190)}px`;
    form.innerHTML =
      '<label>Your comment <textarea required maxlength="2000" rows="3"></textarea></label><div ' +
      'class="btns"><button type="submit">Pin comment</button><button type="button">Cancel</button></div>';
    root.append(form);
    const area = form.querySelector('textarea')!;
    area.focus();
    form.querySelector<HTMLButtonElement>('button[type=button]')!.onclick = () => form.remove();
    form.onsubmit = async (e) => {
      e.preventDefault();
      const text = area.value.trim();
      if (!text) return;
      const send = form.querySelector<HTMLButtonElement>('button[type=submit]')!;
      send.disabled = true;
      say('Saving your pin…');
      form.hidden = true;
      let selector: string;
      try {
        selector = finder(el, { root: document.body, timeoutMs: 500 });
      } catch {
        selector = '';
      }
      if (!selector || selector.length > 1000) selector = el.id ? `#${CSS.escape(el.id)}` : el.tagName.toLowerCase();
      let shot: string | null = null;
      try {
        const { captureViewport } = (await import(/* @vite-ignore */ `${api}/review/${__SHOT_CHUNK__}`)) as typeof import('./shot.ts');
        shot = await captureViewport(host, { x: clientX, y: clientY, label: String(pins.length + 1) });
      } catch {
        shot = null;
      }
      try {
        const res = await request('comments', {
          method: 'POST',
          body: JSON.stringify({
            pageUrl: pageUrl(),
            selector,
            x,
            y,
            viewport: { width: innerWidth, height: innerHeight, dpr: devicePixelRatio },
            browser: describeBrowser(navigator.userAgent),
            text,
            ...(shot ? { screenshot: shot } : {}),
          }),
        });
        const { comment } = (await res.json()) as SiteCommentResponse;
        pins.push(comment);
        highlight = comment.id;
        form.remove();
        say(`Pin ${pins.length} saved.`);
        // On a touch screen the toolbar steps aside after a pin; its handle shows the new count.
        if (touch) setOpen(false);
        place();
      } catch (err) {
        form.hidden = false;
        send.disabled = false;
        say((err as Error).message);
      }
    };
  }

  const ours = (e: Event) => e.composedPath().includes(host);
  document.addEventListener(
    'click',
    (e) => {
      if (!commenting || ours(e) || !(e.target instanceof Element)) return;
      e.preventDefault();
      e.stopPropagation();
      ask(e.target, e.clientX, e.clientY);
    },
    true,
  );
  document.addEventListener(
    'keydown',
    (e) => {
      if (!commenting || ours(e) || e.key !== 'Enter' || !(e.target instanceof Element)) return;
      e.preventDefault();
      e.stopPropagation();
      const r = e.target.getBoundingClientRect();
      ask(e.target, r.left + r.width / 2, r.top + r.height / 2);
    },
    true,
  );

  void load().catch((err: Error) => say(err.message));
}
