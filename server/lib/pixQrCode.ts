import { crc32, deflateSync } from 'node:zlib';
import { qrSymbol } from './qrSymbol.js';

/** Pixels per QR module and modules of quiet zone around the symbol: the picture `qrcode`'s own PNG had (scale 4, margin 1). */
const SCALE = 4;
const MARGIN = 1;
/** Codes whose image is kept: a charge's code is drawn when it is created and again when a read confirms it. */
const CACHE_SIZE = 1_000;

const cache = new Map<string, string>();
/** Images drawn since the process started (cache misses), for the tests that check the cache. */
let drawn = 0;

export function pixQrImagesDrawn(): number {
  return drawn;
}

/**
 * The PIX copy-and-paste code as a PNG data URL, for providers that send only the code (the spec wants an image).
 *
 * The symbol comes from `qrcode` (error correction M, its best mask); the PNG is written here as 1-bit grayscale,
 * which is the same picture as that library's RGBA rendering at a fraction of the bytes to compress: its renderer
 * spent about three quarters of the 5 ms a PIX charge paid for its image. The last codes drawn are kept, so a
 * notification confirmed with a read does not draw its charge's code again.
 */
export async function pixQrCodeDataUrl(pixCode: string): Promise<string> {
  return pixQrImage(pixCode);
}

/** `pixQrCodeDataUrl`, for a caller that cannot wait (a transport's mapper): the same picture, from the same cache. */
export function pixQrImage(pixCode: string): string {
  const cached = cache.get(pixCode);
  if (cached !== undefined) {
    // Most recently used last: a Map iterates in insertion order, so the first key is the one to evict.
    cache.delete(pixCode);
    cache.set(pixCode, cached);
    return cached;
  }
  const url = `data:image/png;base64,${qrPng(pixCode).toString('base64')}`;
  drawn += 1;
  cache.set(pixCode, url);
  if (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value!);
  return url;
}

/**
 * The code's QR symbol as a PNG: black modules on white, `SCALE` pixels each, `margin` white modules around (1, the
 * gateway's picture; 4, the one `qrcode`'s defaults draw, which the SANDBOX PSP's images have always had). Each row
 * of modules is written once as pixels and copied to its `SCALE` rows of the image.
 */
export function qrPng(text: string, margin = MARGIN): Buffer {
  const { size, modules } = qrSymbol(text);
  const side = (size + 2 * margin) * SCALE;
  const rowBytes = 1 + Math.ceil(side / 8); // the filter type (0, none), then 8 pixels per byte, first pixel in the high bit
  const raw = Buffer.alloc(rowBytes * side, 0xff); // white: grayscale 1 is white at bit depth 1
  for (let y = 0; y < side; y += 1) raw[y * rowBytes] = 0;
  for (let r = 0; r < size; r += 1) {
    const first = (r + margin) * SCALE * rowBytes;
    for (let c = 0; c < size; c += 1) {
      if (!modules[r * size + c]) continue;
      for (let x = (c + margin) * SCALE, end = x + SCALE; x < end; x += 1) raw[first + 1 + (x >> 3)]! &= ~(0x80 >> (x & 7));
    }
    for (let k = 1; k < SCALE; k += 1) raw.copy(raw, first + k * rowBytes + 1, first + 1, first + rowBytes);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(side, 0);
  header.writeUInt32BE(side, 4);
  header[8] = 1; // bit depth
  header[9] = 0; // grayscale; compression, filter method and interlace stay 0
  return Buffer.concat([PNG_SIGNATURE, chunk('IHDR', header), chunk('IDAT', deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]);
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** A PNG chunk: length, type, data, and the CRC-32 of type and data. */
function chunk(type: string, data: Buffer): Buffer {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'latin1');
  data.copy(out, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}

/**
 * A PIX result as an adapter answers it: the copy-and-paste code, without an image. The image the contract carries
 * (spec doc 2 §3: a data URL) is drawn from the code at the gateway's edge, only for a caller that wants it
 * (server/transport/protoMapper.ts), so it never depends on a provider's image host, is never stored, and costs a
 * charge nothing when the caller draws its own. Results without a code keep what the provider gave.
 */
export async function pixCodeOnly<T extends { paymentMethod: string; pixCode?: string; pixQrCode?: string }>(result: T): Promise<T> {
  if (result.paymentMethod !== 'PIX' || !result.pixCode || result.pixQrCode === undefined) return result;
  const { pixQrCode: _image, ...rest } = result;
  return rest as T;
}
