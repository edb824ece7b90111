import type { FastifyReply } from 'fastify';

// Answers kept with the version of the data they were read from (`order_reads.version`, which the
// database moves on every commit that changes what they show: migrations/1010_order_reads.sql,
// docs/decisions/317-order-reads-table.md). A hot read asks the database for the version alone, one
// index lookup, and answers the kept JSON while it has not moved; every instance checks against the
// database, so no instance answers what another has changed. Bounded: emptied when full.

export interface VersionedAnswers {
  /** Whether an answer is kept for `key` (then its version is worth asking for). */
  has(key: string): boolean;
  /** The JSON kept for `key` at exactly `version`, or undefined. */
  get(key: string, version: string): string | undefined;
  keep(key: string, version: string, json: string): void;
}

export function versionedAnswers(limit = 5_000): VersionedAnswers {
  const kept = new Map<string, { version: string; json: string }>();
  return {
    has: (key) => kept.has(key),
    get(key, version) {
      const k = kept.get(key);
      return k !== undefined && k.version === version ? k.json : undefined;
    },
    keep(key, version, json) {
      if (kept.size >= limit && !kept.has(key)) kept.clear();
      kept.set(key, { version, json });
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
