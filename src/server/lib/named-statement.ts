// Names for the hot raw reads' prepared statements (db/client.ts `query(text, params, name)`):
// PostgreSQL keeps a named statement per connection and refuses one name with another text, so a
// read whose text varies (e.g. with the registered support extensions) gets one name per text.
const names = new Map<string, string>();

/** `prefix` for the first text it is given, `prefix_2`, `prefix_3` … for each other text. */
export function namedStatement(prefix: string, text: string): string {
  let name = names.get(text);
  if (!name) {
    const taken = [...names.values()].filter((n) => n === prefix || n.startsWith(`${prefix}_`)).length;
    name = taken === 0 ? prefix : `${prefix}_${taken + 1}`;
    names.set(text, name);
  }
  return name;
}
