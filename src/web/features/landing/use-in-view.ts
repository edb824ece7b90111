import { useEffect, useState, type RefObject } from 'react';

/** Whether any part of the element is on screen (the hero hides the landing top bar while it is). */
export function useInView(ref: RefObject<HTMLElement | null>, initial = true): boolean {
  const [inView, setInView] = useState(initial);
  useEffect(() => {
    const el = ref.current;
    if (!el || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(([entry]) => setInView(Boolean(entry?.isIntersecting)));
    observer.observe(el);
    return () => observer.disconnect();
  }, [ref]);
  return inView;
}
