import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { decideFileType } from './file-type.ts';
import { contentDisposition, sanitizeFileName } from './file-name.ts';
import { inspectUpload } from './inspect-upload.ts';
import { DOCX, ole, PNG, SVG_WITH_SCRIPT } from '../../../../tests/fixtures/file-bytes.ts';

// The pure parts of the upload checks, on inputs the API tests do not reach: bytes arriving in
// awkward chunks, SVG and HTML in their less common spellings, names at the edges.

/** Runs `chunks` through the inspector as the upload would, then decides the type. */
async function decide(chunks: (Buffer | string)[], name = 'upload.bin') {
  const inspector = inspectUpload();
  await pipeline(Readable.from(chunks.map((c) => Buffer.from(c))), inspector, new Writable({ write: (_c, _e, done) => done() }));
  return decideFileType(inspector.result(), name);
}

describe('type from the bytes', () => {
  it('reads UTF-8 text whose characters are split between chunks, and refuses broken UTF-8 or a NUL', async () => {
    const euro = Buffer.from('Preis: 5 €\n'); // € is 3 bytes
    const cut = euro.length - 3;
    expect(await decide([euro.subarray(0, cut + 1), euro.subarray(cut + 1)], 'prices.csv')).toEqual({ ok: true, type: 'text/csv' });
    expect((await decide([Buffer.from([0x48, 0x69, 0xc3])], 'x.txt')).ok).toBe(false); // cut-off 2-byte sequence at the end
    expect((await decide(['line one\n', Buffer.from([0x00]), 'line two'], 'x.txt')).ok).toBe(false);
  });

  it('finds Office markers split between chunks', async () => {
    const at = DOCX.indexOf('word/document.xml') + 5;
    expect(await decide([DOCX.subarray(0, at), DOCX.subarray(at)])).toEqual({
      ok: true,
      type: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    });
    const doc = ole('WordDocument');
    const mid = doc.indexOf(Buffer.from('WordDocument', 'utf16le')) + 7;
    expect(await decide([doc.subarray(0, mid), doc.subarray(mid)])).toEqual({ ok: true, type: 'application/msword' });
  });

  it('SVG behind a BOM, a comment and a doctype, or with a namespace prefix, is SVG', async () => {
    const svg =
      '\uFEFF<?xml version="1.0"?>\n<!-- made by hand -->\n<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" ' +
      '"http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd">\n<svg xmlns="http://www.w3.org/2000/svg"/>';
    expect(await decide([svg], 'logo.png')).toEqual({ ok: true, type: 'image/svg+xml' });
    expect(await decide(['<svg:svg xmlns:svg="http://www.w3.org/2000/svg"></svg:svg>'])).toEqual({ ok: true, type: 'image/svg+xml' });
    expect(await decide([SVG_WITH_SCRIPT])).toEqual({ ok: true, type: 'image/svg+xml' });
  });

  it('HTML in any spelling a browser would sniff is refused, as is XHTML', async () => {
    for (const page of [
      '\uFEFF  <!doctype HTML><p>x',
      '\n\t<HTML>',
      '<script>alert(1)</script>',
      '<body onload=x>',
      '<!-- x -->',
      '<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml"/>',
    ]) {
      const d = await decide([page], 'logo.png');
      expect(d.ok, JSON.stringify(page)).toBe(false);
    }
    // Text that merely mentions a tag later on is text (it is never rendered: attachment + nosniff).
    expect(await decide(['Please put <b>bold</b> on the logo.\n'], 'notes.md')).toEqual({ ok: true, type: 'text/markdown' });
  });

  it('a PNG header is enough to be a PNG, whatever follows', async () => {
    expect(await decide([PNG.subarray(0, 4), PNG.subarray(4)])).toEqual({ ok: true, type: 'image/png' });
  });
});

describe('names', () => {
  it('keeps surrogate pairs whole when cutting, drops lone surrogates and zero-width characters', () => {
    const name = sanitizeFileName(`${'😀'.repeat(250)}.png`);
    expect([...name]).toHaveLength(200);
    expect(name.endsWith('😀.png')).toBe(true);
    expect(sanitizeFileName('a\ud800b\u200bc.txt')).toBe('abc.txt');
    expect(sanitizeFileName('   ')).toBe('file');
    expect(sanitizeFileName('.htaccess')).toBe('htaccess');
    expect(sanitizeFileName(`${'b'.repeat(250)}.averyveryverylongextension`)).toHaveLength(200);
  });

  it('Content-Disposition: ASCII fallback without quotes or backslashes, exact UTF-8 in filename*', () => {
    expect(contentDisposition('attachment', 'Résumé "final";v2.pdf')).toBe(
      `attachment; filename="R_sum_ _final__v2.pdf"; filename*=UTF-8''R%C3%A9sum%C3%A9%20%22final%22%3Bv2.pdf`,
    );
  });
});
