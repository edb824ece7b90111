import type { OrderFileType } from '../../../contract/order-files.ts';
import type { Inspection } from './inspect-upload.ts';

// The type of an upload is decided from its bytes (decision 141), never from its name or the
// browser's Content-Type: a page of HTML called logo.png is HTML, and HTML is refused.

export type TypeDecision = { ok: true; type: OrderFileType } | { ok: false; reason: string };

const startsWith = (head: Buffer, ...bytes: number[]) => bytes.every((b, i) => head[i] === b);
const ascii = (head: Buffer, at: number, text: string) => head.subarray(at, at + text.length).toString('latin1') === text;

/** Binary formats by their magic numbers. */
function binaryType(i: Inspection): TypeDecision | null {
  const h = i.head;
  if (startsWith(h, 0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return { ok: true, type: 'image/png' };
  if (startsWith(h, 0xff, 0xd8, 0xff)) return { ok: true, type: 'image/jpeg' };
  if (ascii(h, 0, 'GIF87a') || ascii(h, 0, 'GIF89a')) return { ok: true, type: 'image/gif' };
  if (ascii(h, 0, 'RIFF') && ascii(h, 8, 'WEBP')) return { ok: true, type: 'image/webp' };
  if (ascii(h, 0, '%PDF-')) return { ok: true, type: 'application/pdf' };
  // A ZIP starts with a local file header (or, empty, with the end-of-central-directory record).
  if (ascii(h, 0, 'PK\x03\x04') || ascii(h, 0, 'PK\x05\x06')) {
    // Office Open XML is a ZIP with [Content_Types].xml and the part of its application.
    if (i.markers.has('contentTypesXml')) {
      if (i.markers.has('wordDocumentXml'))
        return { ok: true, type: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document' };
      if (i.markers.has('excelWorkbookXml')) return { ok: true, type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' };
      if (i.markers.has('powerpointXml'))
        return { ok: true, type: 'application/vnd.openxmlformats-officedocument.presentationml.presentation' };
    }
    return { ok: true, type: 'application/zip' };
  }
  // OLE compound files are also installers (.msi) and mail (.msg): only Word, Excel and PowerPoint pass.
  if (startsWith(h, 0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1)) {
    if (i.markers.has('oleWord')) return { ok: true, type: 'application/msword' };
    if (i.markers.has('olePowerPoint')) return { ok: true, type: 'application/vnd.ms-powerpoint' };
    if (i.markers.has('oleExcel') || i.markers.has('oleExcel95')) return { ok: true, type: 'application/vnd.ms-excel' };
    return { ok: false, reason: 'it is an Office container that is not a Word, Excel or PowerPoint document' };
  }
  return null;
}

// The WHATWG MIME sniffing standard's HTML signatures (§7.1 "identifying a resource with an
// unknown MIME type"): a browser that ignored our headers would render text starting so as a page.
const HTML_SIGNATURE = /^<(!doctype html|html|head|script|iframe|h1|div|font|table|a|style|title|b|body|br|p)[\s>]|^<!--[\s>]/i;

/** What follows a BOM, whitespace, an XML declaration, comments and a doctype: the root element. */
function rootElement(text: string): string | null {
  let rest = text.replace(/^\uFEFF/, '');
  for (;;) {
    rest = rest.trimStart();
    const skip = /^(<\?xml[\s\S]*?\?>|<!--[\s\S]*?-->|<!doctype[^>[]*(\[[\s\S]*?\])?\s*>)/i.exec(rest);
    if (!skip) break;
    rest = rest.slice(skip[0].length);
  }
  const root = /^<([A-Za-z_][\w.-]*:)?([A-Za-z_][\w.-]*)[\s/>]/.exec(rest);
  return root ? root[2]!.toLowerCase() : null;
}

const TEXT_TYPES: Record<string, OrderFileType> = { md: 'text/markdown', markdown: 'text/markdown', csv: 'text/csv' };

/** Text: valid UTF-8 without NUL. SVG by its root element; HTML and other XML refused. */
function textType(i: Inspection, name: string): TypeDecision {
  const text = i.head.toString('utf8');
  const start = text.replace(/^\uFEFF/, '').trimStart();
  if (HTML_SIGNATURE.test(start)) return { ok: false, reason: 'it is a web page (HTML)' };
  const root = rootElement(text);
  if (root === 'svg') return { ok: true, type: 'image/svg+xml' };
  if (root === 'html') return { ok: false, reason: 'it is a web page (XHTML)' };
  if (/^<\?xml/i.test(start) || root) return { ok: false, reason: 'it is an XML document other than SVG' };
  // Which kind of text is the one thing the name may say: all three are served the same way.
  const ext = /\.([A-Za-z]+)$/.exec(name)?.[1]?.toLowerCase() ?? '';
  return { ok: true, type: TEXT_TYPES[ext] ?? 'text/plain' };
}

export function decideFileType(i: Inspection, name: string): TypeDecision {
  if (i.size === 0) return { ok: false, reason: 'it is empty' };
  const binary = binaryType(i);
  if (binary) return binary;
  if (i.isText) return textType(i, name);
  return { ok: false, reason: 'its content is not one of the accepted types' };
}

export const ACCEPTED_TYPES_TEXT =
  'images (PNG, JPEG, WebP, GIF, SVG), PDF, ZIP, Word, Excel and PowerPoint documents, plain text, Markdown and CSV';
