import { SITE_REVIEW_LIMITS } from '../../../contract/site-review.ts';
import { AppError, badRequest } from '../../lib/app-error.ts';

// A site pin's screenshot arrives as a data URL. What it is comes from its bytes, never from the
// label: only PNG and JPEG are kept (HTML, SVG and the rest could run script when opened).

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const JPEG = Buffer.from([0xff, 0xd8, 0xff]);

export interface Screenshot {
  bytes: Buffer;
  extension: 'png' | 'jpg';
}

export function decodeScreenshot(dataUrl: string): Screenshot {
  const match = /^data:image\/(?:png|jpeg);base64,([A-Za-z0-9+/]+={0,2})$/.exec(dataUrl);
  if (!match) throw badRequest('screenshot must be a PNG or JPEG data URL (data:image/png;base64,…).');
  const bytes = Buffer.from(match[1]!, 'base64');
  if (bytes.length > SITE_REVIEW_LIMITS.screenshotBytes) throw new AppError('PAYLOAD_TOO_LARGE', 'The screenshot can be at most 2 MB.');
  if (bytes.subarray(0, PNG.length).equals(PNG)) return { bytes, extension: 'png' };
  if (bytes.subarray(0, JPEG.length).equals(JPEG)) return { bytes, extension: 'jpg' };
  throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'The screenshot is not a PNG or JPEG image.');
}
