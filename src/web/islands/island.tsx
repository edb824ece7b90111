import type { ComponentType, ReactNode } from 'react';
import type { IslandName } from './island-names.ts';

// Prerendered public pages ship no router and no app shell (docs/decisions/074): each
// interactive part is an "island", a small React root of its own that islands.ts hydrates.
// <Island> marks one in the markup. In the router app it is a plain wrapper around the component.

/** Set by the prerender (scripts/prerender-entry.tsx): renders an island as its own root. */
type IslandRenderer = (name: IslandName, node: ReactNode, id: string) => string;
let renderer: IslandRenderer | null = null;
let count = 0;

/** The prerender renders each island with renderToString in its own root, as the browser will hydrate it. */
export function setIslandRenderer(render: IslandRenderer | null) {
  renderer = render;
  count = 0;
}

/**
 * What makes islands.ts hydrate an island (its JavaScript and React load then, not before); an
 * island lists one or more, the first that happens wins:
 * - 'load': at once (it shows something at load: prices in the visitor's currency);
 * - 'featured': when GET /promotion names a featured promotion (the banner's countdown), checked
 *   without React; without one the island's prerendered frame is removed;
 * - 'interaction': the first pointer, focus, input or key event inside it; until then it is plain
 *   HTML (a form's submit and a button's click are held and done once React is there);
 * - 'visible': when it comes near the viewport (the footer's weather);
 * - 'scroll': the first scroll of the page (the header hides on scroll; the landing top bar shows);
 * - 'session': at once when a session token is stored (what it shows depends on the user);
 * - 'chat': at once when the visitor has a chat (its unread badge);
 * - 'promotion': when the featured promotion is on and the popup should open (checked without React).
 */
export type Trigger = 'load' | 'featured' | 'interaction' | 'visible' | 'scroll' | 'session' | 'chat' | 'promotion';

/**
 * One island. Its element is a `display: contents` div, or an `li` (`as="li"`) where only a list
 * item may stand; the component renders what goes inside it.
 */
export function Island<P extends object>({
  name,
  component: Component,
  props,
  as = 'div',
  hydrate,
}: {
  name: IslandName;
  component: ComponentType<P>;
  props: P;
  as?: 'div' | 'li';
  hydrate: Trigger[];
}) {
  const Element = as;
  const className = as === 'div' ? 'contents' : undefined;
  if (renderer) {
    // Every island gets its own useId prefix: two lead forms on a page must not share ids.
    const id = `${name}-${count++}-`;
    const html = renderer(name, <Component {...props} />, id);
    return (
      <Element
        data-island={name}
        data-island-id={id}
        data-hydrate={hydrate.join(' ')}
        data-props={JSON.stringify(props)}
        className={className}
        dangerouslySetInnerHTML={{ __html: html }}
      />
    );
  }
  return (
    <Element data-island={name} className={className}>
      <Component {...props} />
    </Element>
  );
}
