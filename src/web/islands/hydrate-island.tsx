import type { ComponentType } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { IslandRoot } from './island-root.tsx';
import { rememberIsland } from './mounted.ts';

/** Makes one island a React root over its prerendered markup (same prefix for useId as the prerender). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- props come from the markup's JSON
export function hydrateIsland(el: HTMLElement, Component: ComponentType<any>, props: object, onReady: () => void) {
  rememberIsland(
    hydrateRoot(
      el,
      <IslandRoot onReady={onReady}>
        <Component {...props} />
      </IslandRoot>,
      { identifierPrefix: el.dataset.islandId },
    ),
  );
}
