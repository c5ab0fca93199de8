import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { basename, extname, isAbsolute, relative, sep } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, brotliDecompressSync, constants as zlib, gunzipSync, gzip } from 'node:zlib';

/**
 * The back-office's files (web/dist), each held in memory with its compressed
 * forms so that a visit costs no compression: `npm run build:web` writes a
 * `.br` (quality 11) and a `.gz` (level 9) beside each text file
 * (web/precompress.ts); a sibling is used only when it decompresses to the
 * file's bytes, and a file without valid siblings (a WEB_DIR built otherwise)
 * is compressed once, on its first request, at a quicker brotli quality. A
 * file is loaded again when its size or time changes, so a new build is
 * served without a restart.
 */

export type Encoding = 'br' | 'gzip' | 'identity';

export interface Variant {
  encoding: Encoding;
  body: Buffer;
  etag: string;
}

export interface StaticFile {
  contentType: string;
  cacheControl: string;
  /** Best first; identity always last. */
  variants: Variant[];
}

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
};

/** Worth compressing: text. Images here are already compressed. */
const COMPRESSIBLE = new Set(['.html', '.js', '.css', '.svg', '.json', '.map', '.txt']);

/** Below this a compressed body saves less than its headers' difference: such a file is always sent as it is. */
export const MIN_COMPRESSIBLE_BYTES = 256;

/** Vite's names under assets/: `<name>-<hash>.<ext>`, the hash 8 URL-safe characters. */
const HASHED_ASSET = /-[A-Za-z0-9_-]{8}\.[a-z0-9]+$/;

export const IMMUTABLE = 'public, max-age=31536000, immutable';
/** Kept, but asked again (ETag) before each use: a new deploy's index.html, which names the new assets, is seen at once. */
export const REVALIDATE = 'no-cache';

/** Quality for a file compressed by the server itself (the build's siblings are quality 11). */
const RUNTIME_BROTLI_QUALITY = 5;

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

export function cacheControlOf(relativePath: string): string {
  const parts = relativePath.split(sep);
  return parts.length === 2 && parts[0] === 'assets' && HASHED_ASSET.test(basename(relativePath)) ? IMMUTABLE : REVALIDATE;
}

/** The sibling `file + suffix` when it decompresses to `content`. */
async function validSibling(file: string, suffix: '.br' | '.gz', content: Buffer): Promise<Buffer | undefined> {
  let sibling: Buffer;
  try {
    sibling = await readFile(file + suffix);
  } catch {
    return undefined;
  }
  try {
    const decoded = suffix === '.br' ? brotliDecompressSync(sibling) : gunzipSync(sibling);
    return decoded.equals(content) ? sibling : undefined;
  } catch {
    return undefined;
  }
}

async function load(webDir: string, file: string): Promise<StaticFile> {
  const content = await readFile(file);
  const ext = extname(file);
  const tag = createHash('sha256').update(content).digest('base64url').slice(0, 27);
  const variants: Variant[] = [];
  if (COMPRESSIBLE.has(ext) && content.length >= MIN_COMPRESSIBLE_BYTES) {
    const br =
      (await validSibling(file, '.br', content)) ??
      (await brotli(content, {
        params: {
          [zlib.BROTLI_PARAM_QUALITY]: RUNTIME_BROTLI_QUALITY,
          [zlib.BROTLI_PARAM_SIZE_HINT]: content.length,
          [zlib.BROTLI_PARAM_MODE]: zlib.BROTLI_MODE_TEXT,
        },
      }));
    const gz = (await validSibling(file, '.gz', content)) ?? (await gzipAsync(content, { level: 9 }));
    if (br.length < content.length) variants.push({ encoding: 'br', body: br, etag: `"${tag}-br"` });
    if (gz.length < content.length) variants.push({ encoding: 'gzip', body: gz, etag: `"${tag}-gz"` });
  }
  variants.push({ encoding: 'identity', body: content, etag: `"${tag}"` });
  return {
    contentType: CONTENT_TYPES[ext] ?? 'application/octet-stream',
    cacheControl: cacheControlOf(relative(webDir, file)),
    variants,
  };
}

/**
 * The encodings the request accepts, with their weights (RFC 9110 §12.5.3):
 * an encoding not named takes `*`'s weight, or 0; identity is acceptable
 * unless refused by name or by `*;q=0`.
 */
export function acceptedWeights(header: string | undefined): Record<Encoding, number> {
  const named = new Map<string, number>();
  for (const item of (header ?? '').split(',')) {
    const [first = '', ...params] = item.toLowerCase().split(';');
    const coding = first.trim();
    if (!coding) continue;
    // A weight is 0 to 1 with at most three decimals; one written otherwise counts as a refusal.
    const q = params.map((param) => /^\s*q\s*=\s*(.*?)\s*$/.exec(param)?.[1]).find((value) => value !== undefined);
    const weight = q === undefined ? 1 : /^(0(\.\d{0,3})?|1(\.0{0,3})?)$/.test(q) ? Number(q) : 0;
    named.set(coding === 'x-gzip' ? 'gzip' : coding, weight);
  }
  const any = named.get('*');
  const weightOf = (coding: Encoding, fallback: number) => named.get(coding) ?? any ?? fallback;
  // Identity not named is acceptable but the least wanted: `br;q=0.5` still prefers brotli to the plain file.
  return { br: weightOf('br', 0), gzip: weightOf('gzip', 0), identity: weightOf('identity', 0.001) };
}

/**
 * The variant to send: the accepted one of highest weight, brotli before
 * gzip before identity on a tie. Identity when nothing is acceptable (a
 * request refusing even identity still gets the file rather than a 406).
 */
export function chooseVariant(file: StaticFile, acceptEncoding: string | undefined): Variant {
  const weights = acceptedWeights(acceptEncoding);
  let best: Variant | undefined;
  for (const variant of file.variants) if (weights[variant.encoding] > 0 && (!best || weights[variant.encoding] > weights[best.encoding])) best = variant;
  return best ?? file.variants[file.variants.length - 1]!;
}

/** If-None-Match's weak comparison (RFC 9110 §13.1.2): W/ is ignored on both sides; `*` matches any. */
export function noneMatch(header: string | undefined, etag: string): boolean {
  if (header === undefined) return true;
  const strip = (tag: string) => tag.trim().replace(/^W\//, '');
  return !header.split(',').some((tag) => tag.trim() === '*' || strip(tag) === strip(etag));
}

export class StaticFiles {
  private readonly loaded = new Map<string, { size: number; mtimeMs: number; file: Promise<StaticFile> }>();

  constructor(readonly webDir: string) {}

  /** The file at this absolute path inside the folder, or undefined when there is none. */
  async get(path: string): Promise<StaticFile | undefined> {
    const inside = relative(this.webDir, path);
    if (!inside || inside === '..' || inside.startsWith(`..${sep}`) || isAbsolute(inside)) return undefined;
    let facts;
    try {
      facts = await stat(path);
    } catch {
      return undefined;
    }
    if (!facts.isFile()) return undefined;
    const known = this.loaded.get(path);
    if (known && known.size === facts.size && known.mtimeMs === facts.mtimeMs) return known.file;
    const file = load(this.webDir, path);
    this.loaded.set(path, { size: facts.size, mtimeMs: facts.mtimeMs, file });
    // A file that vanished between stat and read is asked again next time.
    file.catch(() => this.loaded.delete(path));
    return file;
  }
}

/** Sends one file: the encoding chosen from Accept-Encoding, 304 when the client's copy is current, no body for HEAD. */
export function sendFile(file: StaticFile, req: IncomingMessage, res: ServerResponse): void {
  const variant = chooseVariant(file, req.headers['accept-encoding']);
  const headers: Record<string, string> = { 'cache-control': file.cacheControl, etag: variant.etag };
  if (file.variants.length > 1) headers.vary = 'Accept-Encoding';
  if (!noneMatch(req.headers['if-none-match'], variant.etag)) {
    res.writeHead(304, headers).end();
    return;
  }
  headers['content-type'] = file.contentType;
  headers['content-length'] = String(variant.body.length);
  if (variant.encoding !== 'identity') headers['content-encoding'] = variant.encoding;
  res.writeHead(200, headers);
  if (req.method === 'HEAD') res.end();
  else res.end(variant.body);
}
