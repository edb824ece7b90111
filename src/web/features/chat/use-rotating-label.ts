import { useEffect, useState } from 'react';

/** Alternates between labels every `everyMs`, fading out and in over `fadeMs` (spec §9: 15 s, 500 ms). */
export function useRotatingLabel(labels: readonly string[], everyMs = 15_000, fadeMs = 500) {
  const [index, setIndex] = useState(0);
  const [isVisible, setVisible] = useState(true);
  // New labels (presence became known) start again from the first, for a full period each.
  const key = labels.join('\n');
  const [shownKey, setShownKey] = useState(key);
  if (shownKey !== key) {
    setShownKey(key);
    setIndex(0);
    setVisible(true);
  }
  useEffect(() => {
    let fade: ReturnType<typeof setTimeout> | undefined;
    const timer = setInterval(() => {
      setVisible(false);
      fade = setTimeout(() => {
        setIndex((i) => i + 1);
        setVisible(true);
      }, fadeMs);
    }, everyMs);
    return () => {
      clearInterval(timer);
      clearTimeout(fade);
    };
  }, [everyMs, fadeMs, key]);
  return { label: labels[index % labels.length]!, isVisible, fadeMs };
}
