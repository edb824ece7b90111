// The name an upload is kept under (decision 141). A browser sends the file's own name; a script
// can send anything. The name is only ever shown and offered back as a download name, so it is
// cleaned rather than refused: the customer could not fix a name their system gave the file.

export const MAX_NAME_LENGTH = 200;
const MAX_EXTENSION_LENGTH = 16;

// C0 controls, DEL, C1 controls; bidi embeddings/overrides/isolates and marks, which can make
// "invoice‮fdp.exe" read as "invoiceexe.pdf"; zero-width and BOM characters that hide in names.
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]/g;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** Cuts a string to `max` code points without splitting a surrogate pair. */
const cut = (s: string, max: number) => [...s].slice(0, max).join('');

export function sanitizeFileName(raw: string | undefined): string {
  let name = (raw ?? '').normalize('NFC').replace(LONE_SURROGATE, '').replace(UNSAFE, '');
  // Only the last path segment: "../../etc/passwd" and "C:\\Users\\me\\logo.png" keep their file name.
  name = name.split(/[/\\]/).pop() ?? '';
  name = name.replace(/\s+/g, ' ').trim();
  // "." and ".." (or only dots) are not names; a leading dot would make a hidden file when saved.
  name = name.replace(/^\.+/, '').trim();
  if (!name) return 'file';
  if ([...name].length <= MAX_NAME_LENGTH) return name;
  const dot = name.lastIndexOf('.');
  const ext = dot > 0 && name.length - dot <= MAX_EXTENSION_LENGTH ? name.slice(dot) : '';
  const base = name.slice(0, name.length - ext.length);
  return `${cut(base, MAX_NAME_LENGTH - [...ext].length).trimEnd()}${ext}`;
}

/**
 * `Content-Disposition` for a download (RFC 6266 with RFC 5987 `filename*`): an ASCII fallback for
 * old clients and the exact UTF-8 name for everyone else.
 */
export function contentDisposition(kind: 'attachment' | 'inline', name: string): string {
  const fallback = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\%;]/g, '_');
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${kind}; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}
