// A token bucket per socket: a flood is refused message by message while the socket stays
// connected and usable once the visitor slows down.
export interface RateBucket {
  take(): boolean;
}

export function createRateBucket(capacity: number, refillPerSecond: number, now: () => number = Date.now): RateBucket {
  let tokens = capacity;
  let last = now();
  return {
    take() {
      const t = now();
      tokens = Math.min(capacity, tokens + ((t - last) / 1000) * refillPerSecond);
      last = t;
      if (tokens < 1) return false;
      tokens -= 1;
      return true;
    },
  };
}
