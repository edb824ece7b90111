import { createHash } from 'node:crypto';

// Names for the hot raw reads' prepared statements (db/client.ts `query(text, params, name)`):
// PostgreSQL keeps a named statement per connection and refuses one name with another text, so a
// read whose text varies (e.g. with the registered support extensions) is named after its text.

/** `prefix_` and a short hash of `text`: one name per text. */
export const namedStatement = (prefix: string, text: string) =>
  `${prefix}_${createHash('sha1').update(text).digest('base64url').slice(0, 12)}`;
