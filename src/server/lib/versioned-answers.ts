import type { FastifyReply } from 'fastify';

// Answers kept with the version of the data they were read from (`order_reads.version`, which the
// database moves on every commit that changes what they show: migrations/1010_order_reads.sql,
// docs/decisions/317-order-reads-table.md). A hot read asks the database for the version alone, one
// index lookup, and answers the kept JSON while it has not moved; every instance checks against the
// database, so no instance answers what another has changed. An answer that also depends on the
// clock is kept until the first instant it would read differently. Bounded: emptied when full.

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
   * serializer writes it, with the content type Fastify gives JSON.
   */
  answer<T>(reply: object, key: string, versionNow: () => Promise<string | null>, read: () => Promise<VersionedAnswer<T>>): Promise<T | FastifyReply>;
  /** The JSON kept for `key` at exactly `version` and still true at `now` (epoch ms), or undefined. */
  get(key: string, version: string, now?: number): string | undefined;
  /** Keeps `json` read at `version`, true until `until` (epoch ms; for ever by default). */
  keep(key: string, version: string, json: string, until?: number): void;
}

export function versionedAnswers(limit = 5_000): VersionedAnswers {
  const kept = new Map<string, { version: string; json: string; until: number }>();
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
      return k !== undefined && k.version === version && now < k.until ? k.json : undefined;
    },
    keep(key, version, json, until = Infinity) {
      if (kept.size >= limit && !kept.has(key)) kept.clear();
      kept.set(key, { version, json, until });
    },
  };
  return answers;
}
