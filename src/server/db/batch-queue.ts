/**
 * Writes done in batches, one batch in flight (decision 110): what is asked for while a batch is
 * being written waits and goes, all of it (up to `maxBatch`), in the next one. So items keep the
 * order they were pushed in, an idle queue writes an item at once (on the next turn of the event
 * loop, so that everything read from the network in this turn joins it), and a busy one writes
 * many items per round trip and per commit: the cost per item falls as the load rises.
 *
 * `run` answers one outcome per item, in order: a value, or the Error for that item alone. If it
 * throws, every item of the batch is rejected with that error.
 */
export interface BatchQueue<T, R> {
  push(item: T): Promise<R>;
  /** Items waiting for a batch (not those being written). */
  readonly waiting: number;
  /** How long the oldest waiting item has waited, in ms (0 when none waits). */
  oldestWaitMs(): number;
}

export function createBatchQueue<T, R>(
  run: (items: T[]) => Promise<(R | Error)[]>,
  { maxBatch = 200, now = () => performance.now() }: { maxBatch?: number; now?: () => number } = {},
): BatchQueue<T, R> {
  type Waiting = { item: T; at: number; resolve: (r: R) => void; reject: (e: Error) => void };
  const queue: Waiting[] = [];
  let writing = false;
  let scheduled = false;

  async function drain() {
    scheduled = false;
    if (writing) return;
    writing = true;
    while (queue.length > 0) {
      const batch = queue.splice(0, maxBatch);
      try {
        const outcomes = await run(batch.map((w) => w.item));
        batch.forEach((w, n) => {
          const o = outcomes[n];
          if (o instanceof Error) w.reject(o);
          else w.resolve(o as R);
        });
      } catch (err) {
        for (const w of batch) w.reject(err as Error);
      }
    }
    writing = false;
  }

  return {
    get waiting() {
      return queue.length;
    },
    oldestWaitMs: () => (queue.length > 0 ? now() - queue[0]!.at : 0),
    push(item) {
      return new Promise<R>((resolve, reject) => {
        queue.push({ item, at: now(), resolve, reject });
        if (!writing && !scheduled) {
          scheduled = true;
          setImmediate(() => void drain());
        }
      });
    },
  };
}
