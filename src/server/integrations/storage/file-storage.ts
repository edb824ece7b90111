import { Transform, type Readable, type TransformCallback } from 'node:stream';

// Where the bytes of uploaded files live (§11). One small interface, two
// drivers: the local folder (default, nothing to set up) and any S3-compatible object store (for
// several instances). The database keeps the metadata; a storage key is opaque to the drivers.

export interface StoredObject {
  size: number;
}

export interface FileStorage {
  readonly kind: 'local' | 's3';
  /**
   * Writes `body` under `key`. Refuses with `TooLargeError` as soon as more than `maxBytes`
   * arrive; on any failure (too large, the stream errors because the upload was cut off, the
   * store fails) nothing stays under `key`.
   */
  put(key: string, body: Readable, opts: { maxBytes: number }): Promise<StoredObject>;
  /** The bytes as a stream; `ObjectMissingError` when there is nothing under `key`. */
  get(key: string): Promise<Readable>;
  /** Size of what is under `key`, or null. */
  stat(key: string): Promise<StoredObject | null>;
  /** Moves an object to another key (a finished upload from its temporary key to its own). */
  move(from: string, to: string): Promise<void>;
  /** Removes `key`; no error when it is already gone. */
  delete(key: string): Promise<void>;
  /** Keys under a prefix (backups, clean-up of abandoned temporary uploads). */
  list(prefix: string): AsyncIterable<string>;
  /** Releases clients / removes a throw-away folder. */
  close(): Promise<void>;
}

export class TooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`more than ${maxBytes} bytes`);
    this.name = 'TooLargeError';
  }
}

export class ObjectMissingError extends Error {
  constructor(key: string) {
    super(`no object under ${key}`);
    this.name = 'ObjectMissingError';
  }
}

// Keys are made by our code (prefix/uuid); anything else is a bug, refused before it reaches a
// path or a URL (no "..", no absolute paths, no odd characters).
const KEY = /^[a-z0-9][a-z0-9-]*(\/[a-z0-9][a-z0-9.-]*)*$/;
export function assertKey(key: string): string {
  if (!KEY.test(key) || key.includes('..')) throw new Error(`invalid storage key: ${key}`);
  return key;
}

/** Passes bytes through, counting them; errors with TooLargeError past `maxBytes`. */
export function byteLimit(maxBytes: number): Transform & { bytes: () => number } {
  let seen = 0;
  const t = new Transform({
    transform(chunk: Buffer, _enc, done: TransformCallback) {
      seen += chunk.length;
      if (seen > maxBytes) return done(new TooLargeError(maxBytes));
      done(null, chunk);
    },
  });
  return Object.assign(t, { bytes: () => seen });
}
