import type PDFKit from 'pdfkit';
import { createRequire } from 'node:module';

// The documents' one way to start a PDF (the invoices, the care reports): an A4 page with 50 pt
// margins and DejaVu Sans embedded, regular and bold. pdfkit's built-in fonts are WinAnsi and
// cannot draw "₹": DejaVu Sans (the dejavu-fonts-ttf package, a free licence that allows
// embedding) has ₹, $, €, £ and ¥. pdfkit (~10 MB resident once loaded, with its font metrics) is
// loaded on the first document, not at start-up: most processes render none for hours (the memory
// budget of bench/startup.ts).

let pdfkit: Promise<typeof PDFKit> | undefined;
const loadPdfkit = () => (pdfkit ??= import('pdfkit').then((m) => m.default));

const require = createRequire(import.meta.url);
const FONT = require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf');
const FONT_BOLD = require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf');
/** The registered fonts' names: `doc.font(REGULAR)`, `doc.font(BOLD)`. */
export const REGULAR = 'Regular';
export const BOLD = 'Bold';

/** A new A4 document with the fonts registered, and its bytes once `doc.end()` is called. */
export async function a4Document(info: PDFKit.DocumentInfo): Promise<{ doc: PDFKit.PDFDocument; bytes: Promise<Buffer> }> {
  const PDFDocument = await loadPdfkit();
  const doc = new PDFDocument({ size: 'A4', margin: 50, font: FONT, info });
  doc.registerFont(REGULAR, FONT);
  doc.registerFont(BOLD, FONT_BOLD);
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const bytes = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  return { doc, bytes };
}
