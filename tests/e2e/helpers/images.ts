import { crc32, deflateSync } from 'node:zlib';

// Real PNG files for the e2e specs (uploads the server checks from the bytes, shown as thumbnails
// and review images): a coloured background with a few blocks, like a screen design.

function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

type Rgb = [number, number, number];
interface Block {
  x: number;
  y: number;
  w: number;
  h: number;
  color: Rgb;
}

/** A `width`×`height` RGB PNG: `background` with `blocks` (fractions of the size) painted on it. */
export function designPng(width: number, height: number, background: Rgb, blocks: Block[] = []): Buffer {
  const row = width * 3 + 1;
  const raw = Buffer.alloc(row * height);
  for (let y = 0; y < height; y++) {
    raw[y * row] = 0; // filter: none
    for (let x = 0; x < width; x++) {
      const fx = x / width;
      const fy = y / height;
      const block = blocks.findLast((b) => fx >= b.x && fx < b.x + b.w && fy >= b.y && fy < b.y + b.h);
      const [r, g, b] = block ? block.color : background;
      const at = y * row + 1 + x * 3;
      raw[at] = r;
      raw[at + 1] = g;
      raw[at + 2] = b;
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // colour type: RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A home-page design, an about-page design and a logo. */
export const DESIGN_HOME = designPng(
  960,
  600,
  [245, 245, 250],
  [
    { x: 0, y: 0, w: 1, h: 0.12, color: [40, 30, 90] },
    { x: 0.1, y: 0.25, w: 0.5, h: 0.1, color: [30, 30, 30] },
    { x: 0.1, y: 0.45, w: 0.2, h: 0.08, color: [124, 58, 237] },
    { x: 0.65, y: 0.22, w: 0.25, h: 0.5, color: [200, 200, 220] },
  ],
);
export const DESIGN_ABOUT = designPng(
  960,
  1200,
  [250, 250, 245],
  [
    { x: 0, y: 0, w: 1, h: 0.06, color: [40, 30, 90] },
    { x: 0.1, y: 0.12, w: 0.8, h: 0.25, color: [210, 220, 230] },
    { x: 0.1, y: 0.45, w: 0.35, h: 0.2, color: [230, 210, 200] },
    { x: 0.55, y: 0.45, w: 0.35, h: 0.2, color: [200, 230, 210] },
  ],
);
export const LOGO = designPng(256, 256, [255, 255, 255], [{ x: 0.2, y: 0.2, w: 0.6, h: 0.6, color: [124, 58, 237] }]);
