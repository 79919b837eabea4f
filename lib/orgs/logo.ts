import { createHash } from 'node:crypto';
import { InvalidError } from '@/lib/errors';
import { LOGO_MAX_BYTES, type LogoType } from './limits';

/**
 * An uploaded logo, checked before it is stored. The bytes must be what they claim: the declared
 * type is compared with the file's own signature (PNG's 8-byte header, JPEG's start-of-image
 * marker), so an SVG, HTML or script renamed `logo.png` is refused rather than stored and later
 * drawn into every report of the organization. Sizes are checked on the decoded bytes.
 */

const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const JPEG = [0xff, 0xd8, 0xff];

const startsWith = (bytes: Uint8Array, signature: number[]) => signature.every((b, i) => bytes[i] === b);

/** The image format of the bytes by their signature; null for anything else. */
export function sniffLogoType(bytes: Uint8Array): LogoType | null {
  if (startsWith(bytes, PNG)) return 'image/png';
  if (startsWith(bytes, JPEG)) return 'image/jpeg';
  return null;
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

export interface CheckedLogo {
  contentType: LogoType;
  image: Uint8Array;
  size: number;
  sha256: string;
}

/** Decodes and checks an upload `{contentType, data}` (data: base64); InvalidError (422) naming the field. */
export function checkLogo(contentType: LogoType, data: string): CheckedLogo {
  const compact = data.replace(/\s+/g, '');
  if (!BASE64.test(compact) || compact.length % 4 === 1)
    throw new InvalidError('data', 'must be the image file encoded as base64');
  const image = new Uint8Array(Buffer.from(compact, 'base64'));
  if (image.length === 0) throw new InvalidError('data', 'is empty: choose an image file');
  if (image.length > LOGO_MAX_BYTES)
    throw new InvalidError(
      'data',
      `is ${Math.ceil(image.length / 1024)} KB: a logo may be at most ${LOGO_MAX_BYTES / 1024} KB`,
    );
  const actual = sniffLogoType(image);
  if (actual === null) throw new InvalidError('data', 'is not a PNG or JPEG image');
  if (actual !== contentType)
    throw new InvalidError('contentType', `is ${contentType} but the file is ${actual}`);
  return {
    contentType,
    image,
    size: image.length,
    sha256: createHash('sha256').update(image).digest('hex'),
  };
}

/** The logo as a `data:` URL, for the report's HTML, which Chromium prints without fetching anything. */
export function logoDataUrl(logo: { contentType: string; image: Uint8Array }): string {
  return `data:${logo.contentType};base64,${Buffer.from(logo.image).toString('base64')}`;
}
