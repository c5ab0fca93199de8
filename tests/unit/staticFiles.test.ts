import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { acceptedWeights, cacheControlOf, chooseVariant, IMMUTABLE, noneMatch, REVALIDATE, StaticFiles } from '../../server/transport/connect/staticFiles.js';

let dir: string;
const script = 'export const words = ' + JSON.stringify(Array.from({ length: 2000 }, (_, i) => `word ${i % 37}`)) + ';\n';

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'static-files-'));
  mkdirSync(join(dir, 'assets'));
  writeFileSync(join(dir, 'assets/app-AbCd12_-.js'), script);
  // A .gz left from another build: it must not be sent for this file.
  writeFileSync(join(dir, 'assets/app-AbCd12_-.js.gz'), gzipSync('something else'));
  writeFileSync(join(dir, 'tiny.txt'), 'short');
  writeFileSync(join(dir, 'logo.png'), Buffer.alloc(4096, 7));
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('compresses a file without valid siblings itself, once, and the forms decode to the file', async () => {
  const files = new StaticFiles(dir);
  const file = (await files.get(join(dir, 'assets/app-AbCd12_-.js')))!;
  expect(file.variants.map((variant) => variant.encoding)).toEqual(['br', 'gzip', 'identity']);
  const [br, gz, identity] = file.variants;
  expect(brotliDecompressSync(br!.body).toString()).toBe(script);
  expect(gunzipSync(gz!.body).toString()).toBe(script);
  expect(identity!.body.toString()).toBe(script);
  expect(file.cacheControl).toBe(IMMUTABLE);
  // The same object: nothing compressed again for the next request.
  await expect(files.get(join(dir, 'assets/app-AbCd12_-.js'))).resolves.toBe(file);
});

it('loads a file again when it changes (a new build), and sends nothing outside its folder', async () => {
  const files = new StaticFiles(dir);
  const path = join(dir, 'index.html');
  writeFileSync(path, `<!doctype html>${'<p>first</p>'.repeat(100)}`);
  const first = (await files.get(path))!;
  writeFileSync(path, `<!doctype html>${'<p>second</p>'.repeat(100)}`);
  utimesSync(path, new Date(), new Date(Date.now() + 5_000));
  const second = (await files.get(path))!;
  expect(second.variants[0]!.etag).not.toBe(first.variants[0]!.etag);
  expect(brotliDecompressSync(second.variants[0]!.body).toString()).toContain('second');
  expect(second.cacheControl).toBe(REVALIDATE);
  await expect(files.get(join(dir, '..', 'outside.js'))).resolves.toBeUndefined();
  await expect(files.get(dir)).resolves.toBeUndefined();
  await expect(files.get(join(dir, 'assets'))).resolves.toBeUndefined();
  await expect(files.get(join(dir, 'missing.js'))).resolves.toBeUndefined();
});

it('sends small and already compressed files as they are', async () => {
  const files = new StaticFiles(dir);
  for (const name of ['tiny.txt', 'logo.png']) expect((await files.get(join(dir, name)))!.variants.map((variant) => variant.encoding)).toEqual(['identity']);
  expect((await files.get(join(dir, 'logo.png')))!.contentType).toBe('image/png');
});

it('reads Accept-Encoding weights and If-None-Match as RFC 9110 says', async () => {
  expect(acceptedWeights(undefined)).toEqual({ br: 0, gzip: 0, identity: 0.001 });
  expect(acceptedWeights('gzip;q=0.8, br ; q=0.9')).toEqual({ br: 0.9, gzip: 0.8, identity: 0.001 });
  expect(acceptedWeights('*;q=0.5, identity;q=0')).toEqual({ br: 0.5, gzip: 0.5, identity: 0 });
  expect(acceptedWeights('BR;Q=1, gzip;q=abc, identity;q=0.5')).toEqual({ br: 1, gzip: 0, identity: 0.5 });
  const file = (await new StaticFiles(dir).get(join(dir, 'assets/app-AbCd12_-.js')))!;
  expect(chooseVariant(file, 'br;q=0.5, gzip;q=0.6').encoding).toBe('gzip');
  expect(chooseVariant(file, 'br;q=0.1').encoding).toBe('br');
  expect(chooseVariant(file, 'br;q=0.1, identity').encoding).toBe('identity');
  expect(chooseVariant(file, 'br;q=0, gzip;q=0, identity;q=0').encoding).toBe('identity');
  expect(noneMatch(undefined, '"a"')).toBe(true);
  expect(noneMatch('W/"a"', '"a"')).toBe(false);
  expect(noneMatch('"b", "c"', '"a"')).toBe(true);
  expect(noneMatch('*', '"a"')).toBe(false);
});

it('keeps only Vite-hashed assets for a year', () => {
  expect(cacheControlOf('assets/index-RfI6hCcx.js')).toBe(IMMUTABLE);
  expect(cacheControlOf('assets/index-DJh95vwR.css')).toBe(IMMUTABLE);
  expect(cacheControlOf('assets/get-auto-contrast-value-BTPwFOS2.js')).toBe(IMMUTABLE);
  for (const path of ['index.html', 'favicon.ico', 'assets/unhashed.js', 'other/index-RfI6hCcx.js']) expect(cacheControlOf(path)).toBe(REVALIDATE);
});
