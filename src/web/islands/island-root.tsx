import { StrictMode, useEffect, type ReactNode } from 'react';
import { SessionProvider } from '../lib/session.tsx';

/**
 * What surrounds every island, in the prerender and in the browser alike (so hydration matches).
 * `onReady` runs once the island is hydrated and its own mount effects have run.
 */
export function IslandRoot({ children, onReady }: { children: ReactNode; onReady?: () => void }) {
  return (
    <StrictMode>
      <SessionProvider>
        <Ready onReady={onReady}>{children}</Ready>
      </SessionProvider>
    </StrictMode>
  );
}

// A parent's effects run after its children's: this one runs last.
function Ready({ children, onReady }: { children: ReactNode; onReady?: () => void }) {
  useEffect(() => onReady?.(), [onReady]);
  return children;
}
