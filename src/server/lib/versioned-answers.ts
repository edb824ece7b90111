import type { FastifyReply } from 'fastify';

// Answers kept with the version of the data they were read from (`order_reads.version`, which the
// database moves on every commit that changes what they show: migrations/1010_order_reads.sql,
// 1090_order_reads_version_only.sql, docs/decisions/317-order-reads-table.md). A hot read asks the
// database for the version alone, one index lookup, and answers the kept JSON while it has not moved;
// every instance checks against the database, so no instance answers what another has changed. An
// answer that also depends on the clock is kept until the first instant it would read differently.
// One store per app for every route that keeps answers (deps.answers), bounded in bytes
// (READ_CACHE_MB): past the bound the least recently used answers go, one by one
// (docs/decisions/341-one-rule-per-derived-value.md).

/** What a read answers, with the version it was read at (null: not to be kept) and until when it holds (epoch ms). */
export interface VersionedAnswer<T> {
  answer: T;
  version: string | null;
  until?: number;
}

export interface VersionedAnswers {
  /**
   * The route's answer for `key`: the kept JSON while `versionNow()` (which applies the read's own
   * ownership rule and 404; null when nothing would be kept) equals the version it was kept at and
   * its clock has not turned, else `read()` afresh, kept when it says so. Sent as the route's own
   * serializer writes it, with the content type Fastify gives JSON. Keys are shared by every route
   * of the store: a route names its keys (`status …`, `thread …`).
   */
  answer<T>(
    reply: object,
    key: string,
    versionNow: () => Promise<string | null>,
    read: () => Promise<VersionedAnswer<T>>,
  ): Promise<T | FastifyReply>;
  /** The JSON kept for `key` at exactly `version` and still true at `now` (epoch ms), or undefined; a hit is the most recently used. */
  get(key: string, version: string, now?: number): string | undefined;
  /** Keeps `json` read at `version`, true until `until` (epoch ms; for ever by default). */
  keep(key: string, version: string, json: string, until?: number): void;
  /** The bytes kept now (keys and JSON, counted as UTF-16 code units × 2: what V8 holds at most). */
  readonly bytes: number;
}

interface Kept {
  version: string;
  json: string;
  until: number;
  bytes: number;
}

/** A store of at most `maxBytes` (READ_CACHE_MB × 2^20 in the app). */
export function versionedAnswers(maxBytes = 32 * 1024 * 1024): VersionedAnswers {
  // A Map iterates in insertion order: re-inserting on every hit keeps the least recently used first.
  const kept = new Map<string, Kept>();
  let bytes = 0;
  const drop = (key: string) => {
    const k = kept.get(key);
    if (k === undefined) return;
    kept.delete(key);
    bytes -= k.bytes;
  };
  const answers: VersionedAnswers = {
    async answer(reply, key, versionNow, read) {
      // The reply is taken untyped: its typed `send` accepts only the operation's response object.
      const raw = reply as FastifyReply;
      const send = (json: string) => raw.type('application/json; charset=utf-8').send(json);
      if (kept.has(key)) {
        const version = await versionNow();
        const json = version === null ? undefined : answers.get(key, version);
        if (json !== undefined) return send(json);
      }
      const fresh = await read();
      if (fresh.version === null) return fresh.answer;
      const json = String(raw.serialize(fresh.answer));
      answers.keep(key, fresh.version, json, fresh.until);
      return send(json);
    },
    get(key, version, now = Date.now()) {
      const k = kept.get(key);
      if (k === undefined || k.version !== version || now >= k.until) return undefined;
      kept.delete(key);
      kept.set(key, k);
      return k.json;
    },
    keep(key, version, json, until = Infinity) {
      drop(key);
      const size = (key.length + json.length) * 2;
      if (size > maxBytes) return;
      for (const oldest of kept.keys()) {
        if (bytes + size <= maxBytes) break;
        drop(oldest);
      }
      kept.set(key, { version, json, until, bytes: size });
      bytes += size;
    },
    get bytes() {
      return bytes;
    },
  };
  return answers;
}
