import { lazy, type ComponentType } from 'react';

/**
 * A component in its own chunk, like React's `lazy`, whose chunk can also be asked for before it
 * renders: the order page asks for the tab named in its address beside its first read, so the
 * chunk is there when the read says which tabs exist (bench/screens.ts measured 0.3 s of waiting
 * for it after the read). The browser loads a module once, whoever asks first.
 */
export function lazyPanel<P>(load: () => Promise<{ default: ComponentType<P> }>) {
  return Object.assign(lazy(load), { preload: (): void => void load().catch(() => {}) });
}
