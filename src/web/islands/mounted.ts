import type { Root } from 'react-dom/client';

// The island roots of this page, so that the router app can take the page over cleanly.
const roots: Root[] = [];

export const rememberIsland = (root: Root) => void roots.push(root);

export function unmountIslands() {
  for (const root of roots.splice(0)) root.unmount();
}
