import type { FastifyReply } from 'fastify';

// Answers kept with the version of the data they were read from (`order_reads.version`, which the
// database moves on every commit that changes what they show: migrations/1010_order_reads.sql,
// docs/decisions/317-order-reads-table.md). A hot read asks the database for the version alone, one
// index lookup, and answers the kept JSON while it has not moved; every instance checks against the
// database, so no instance answers what another has changed. An answer that also depends on the
// clock is kept until the first instant it would read differently. Bounded: emptied when full.

export interface VersionedAnswers {
  /** Whether an answer is kept for `key` (then its version is worth asking for). */
  has(key: string): boolean;
  /** The JSON kept for `key` at exactly `version` and still true at `now` (epoch ms), or undefined. */
  get(key: string, version: string, now?: number): string | undefined;
  /** Keeps `json` read at `version`, true until `until` (epoch ms; for ever by default). */
  keep(key: string, version: string, json: string, until?: number): void;
}

export function versionedAnswers(limit = 5_000): VersionedAnswers {
  const kept = new Map<string, { version: string; json: string; until: number }>();
  return {
    has: (key) => kept.has(key),
    get(key, version, now = Date.now()) {
      const k = kept.get(key);
      return k !== undefined && k.version === version && now < k.until ? k.json : undefined;
    },
    keep(key, version, json, until = Infinity) {
      if (kept.size >= limit && !kept.has(key)) kept.clear();
      kept.set(key, { version, json, until });
    },
  };
}

/**
 * Sends `json`, already serialized by the route's own serializer (`reply.serialize`), as it is: Fastify
 * serializes only what is not a string, and this is the content type it gives JSON. The reply is taken
 * untyped because its typed `send` accepts only the operation's response object.
 */
export function sendJson(reply: object, json: string): FastifyReply {
  return (reply as FastifyReply).type('application/json; charset=utf-8').send(json);
}

/** The route's serialization of `value` (the operation's response schema), as text to keep. */
export function serializeAnswer(reply: object, value: unknown): string {
  return String((reply as FastifyReply).serialize(value));
}
