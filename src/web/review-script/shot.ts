import { toCanvas } from 'html-to-image';

// The second chunk of review.js, loaded only when the first pin is dropped (decision 241): a
// screenshot of the viewport as the reviewer sees it, the pin marked, as a JPEG data URL ≤ 2 MB.

const MAX_BYTES = 2 * 1024 * 1024;

/** `skip`: our own toolbar and markers stay out of the picture. `pin`: where to draw the pin, in viewport pixels. */
export async function captureViewport(skip: Element, pin: { x: number; y: number; label: string }): Promise<string | null> {
  const width = window.innerWidth;
  const height = window.innerHeight;
  const page = await toCanvas(document.documentElement, {
    pixelRatio: 1,
    width: document.documentElement.scrollWidth,
    height: document.documentElement.scrollHeight,
    filter: (node) => node !== skip,
    cacheBust: false,
  });
  const out = document.createElement('canvas');
  out.width = width;
  out.height = height;
  const ctx = out.getContext('2d');
  if (!ctx) return null;
  ctx.fillStyle = '#fff';
  ctx.fillRect(0, 0, width, height);
  ctx.drawImage(page, window.scrollX, window.scrollY, width, height, 0, 0, width, height);
  ctx.beginPath();
  ctx.arc(pin.x, pin.y, 13, 0, Math.PI * 2);
  ctx.fillStyle = '#e11d48';
  ctx.fill();
  ctx.lineWidth = 3;
  ctx.strokeStyle = '#fff';
  ctx.stroke();
  ctx.fillStyle = '#fff';
  ctx.font = 'bold 13px system-ui, sans-serif';
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  ctx.fillText(pin.label, pin.x, pin.y + 1);
  for (const quality of [0.8, 0.6, 0.4]) {
    const url = out.toDataURL('image/jpeg', quality);
    if ((url.length * 3) / 4 <= MAX_BYTES) return url;
  }
  return null;
}
