import { createElement, lazy, useState, type ComponentType } from 'react';

/**
 * A component in its own chunk, like React's `lazy`, whose chunk can also be asked for before it
 * renders (`preload`): the order page asks for the tab named in its address beside its first read,
 * so the chunk is there when the read says which tabs exist (docs/decisions/351-screens-in-series.md).
 *
 * Once the chunk is in, the component renders at once. React's `lazy` suspends on its first render
 * even when the module has already arrived, and React then holds the revealed content back for up to
 * 300 ms after the fallback it showed (bench/screens.ts saw 0.35 s gaps before a tab's read in a
 * third of the opens).
 */
export function lazyPanel<P extends object>(load: () => Promise<{ default: ComponentType<P> }>) {
  let loaded: ComponentType<P> | null = null;
  let loading: Promise<ComponentType<P>> | null = null;
  const fetchChunk = () =>
    (loading ??= load().then(
      (m) => (loaded = m.default),
      (err: unknown) => {
        loading = null; // a failed chunk (a deploy in between) is asked for again next time
        throw err;
      },
    ));
  const Suspending = lazy(async () => ({ default: await fetchChunk() }));
  function LazyPanel(props: P) {
    // Chosen once per mount: switching from the lazy wrapper to the module's component later would
    // remount the panel and lose what was typed in it.
    const [type] = useState<ComponentType<P>>(() => loaded ?? Suspending);
    return createElement(type, props);
  }
  return Object.assign(LazyPanel, { preload: (): void => void fetchChunk().catch(() => {}) });
}
