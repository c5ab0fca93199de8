import { constants, crc32, deflateSync } from 'node:zlib';
import { qrSymbol } from './qrSymbol.js';

/**
 * Pixels per QR module and modules of quiet zone around the symbol: the picture `qrcode`'s own PNG had (scale 4, margin 1).
 * qrPng draws a module as half a byte of a row, so the scale stays 4.
 */
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
 * gateway's picture; 4, the one `qrcode`'s defaults draw, which the SANDBOX PSP's images have always had).
 *
 * A row of pixels the same as the one above it (the `SCALE` − 1 copies of each row of modules, the margin's rows) is
 * written with PNG's Up filter, which makes it all zeros; the rest with no filter. Compressed with zlib's run-length
 * strategy, which takes those runs in a third to a half of the time its default took over the unfiltered rows (an
 * image's deflate in about 20 µs against 49–68 µs, 644 bytes against 579; docs/benchmarks.md).
 */
export function qrPng(text: string, margin = MARGIN): Buffer {
  const { size, modules } = qrSymbol(text);
  const side = (size + 2 * margin) * SCALE;
  const rowBytes = 1 + Math.ceil(side / 8); // the filter type, then 8 pixels per byte, first pixel in the high bit
  const raw = Buffer.alloc(rowBytes * side); // zeros: each row a copy of the one above (filter 2, Up, of no difference)
  for (let y = 0; y < side; y += 1) raw[y * rowBytes] = UP;
  const white = (y: number) => {
    raw[y * rowBytes] = NONE;
    raw.fill(0xff, y * rowBytes + 1, (y + 1) * rowBytes); // grayscale 1 is white at bit depth 1
  };
  white(0);
  for (let r = 0; r < size; r += 1) {
    const first = (r + margin) * SCALE * rowBytes;
    white((r + margin) * SCALE);
    // A module is four pixels from a multiple of four: one half of a byte, the high one first.
    for (let c = 0, x = margin * SCALE; c < size; c += 1, x += SCALE) if (modules[r * size + c]) raw[first + 1 + (x >> 3)]! &= ~(0xf0 >> (x & 7));
  }
  white((size + margin) * SCALE);
  const idat = deflateSync(raw, { strategy: constants.Z_RLE });
  const png = Buffer.allocUnsafe(PNG_SIGNATURE.length + 25 + 12 + idat.length + 12);
  PNG_SIGNATURE.copy(png, 0);
  let at = PNG_SIGNATURE.length;
  at = chunk(png, at, 'IHDR', 13, (data) => {
    png.writeUInt32BE(side, data);
    png.writeUInt32BE(side, data + 4);
    png[data + 8] = 1; // bit depth
    png.fill(0, data + 9, data + 13); // grayscale; compression, filter method and interlace 0
  });
  at = chunk(png, at, 'IDAT', idat.length, (data) => idat.copy(png, data));
  chunk(png, at, 'IEND', 0, () => {});
  return png;
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** PNG's row filters: none, and Up (each byte less the one above it). */
const NONE = 0;
const UP = 2;

/** Writes a PNG chunk into `png` at `at` (length, type, the data `write` puts at its offset, CRC-32 of type and data); answers where it ends. */
function chunk(png: Buffer, at: number, type: string, length: number, write: (data: number) => void): number {
  png.writeUInt32BE(length, at);
  png.write(type, at + 4, 'latin1');
  write(at + 8);
  png.writeUInt32BE(crc32(png.subarray(at + 4, at + 8 + length)), at + 8 + length);
  return at + 12 + length;
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
