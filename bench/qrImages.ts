/**
 * What drawing a PIX QR image costs (issue 31 §2: measure encoders): the gateway's own encoder (server/lib/qrSymbol.ts)
 * against the `qrcode` package it replaced, on PIX codes that differ from one another as charges' codes do (so no cache
 * helps), one after the other in one process, each after a warm-up. Printed: microseconds of CPU per symbol and per
 * PNG data URL as the gateway answers it (`qrcode`'s symbol drawn into the same 1-bit PNG), and each one's version.
 * Run alone with `npx tsx bench/qrImages.ts`; QR_BENCH_CODES codes (2,000) per row.
 */
import { deflateSync } from 'node:zlib';
import QRCode from 'qrcode';
import { qrPng } from '../server/lib/pixQrCode.js';
import { qrSymbol } from '../server/lib/qrSymbol.js';

const CODES = Number(process.env.QR_BENCH_CODES ?? 2000);
// A dynamic PIX code as PSPs answer it: a payload URL with a per-charge id, the amount, the merchant, and the CRC.
const codes = Array.from(
  { length: CODES },
  (_, i) =>
    `00020101021226880014br.gov.bcb.pix2566qrcodes-pix.example.com.br/v2/cobv/${i.toString(16).padStart(32, '0')}520400005303986540${String(5 + (i % 4))}${'19.90'.slice(0, 5 + (i % 4))}5802BR5913Loja Exemplo6008BRASILIA62070503***6304${(i * 7919).toString(16).slice(-4).toUpperCase().padStart(4, '0')}`,
);

/** The `qrcode` package's symbol in the gateway's picture (the image the gateway drew before its own encoder). */
function theirPng(text: string): Buffer {
  const { modules } = QRCode.create(text, { errorCorrectionLevel: 'M' });
  const side = (modules.size + 2) * 4;
  const rowBytes = 1 + Math.ceil(side / 8);
  const raw = Buffer.alloc(rowBytes * side, 0xff);
  for (let y = 0; y < side; y += 1) {
    raw[y * rowBytes] = 0;
    const r = Math.floor(y / 4) - 1;
    if (r < 0 || r >= modules.size) continue;
    for (let x = 4; x < side - 4; x += 1) if (modules.get(r, Math.floor(x / 4) - 1)) raw[y * rowBytes + 1 + (x >> 3)]! &= ~(0x80 >> (x & 7));
  }
  return deflateSync(raw);
}

function time(label: string, draw: (code: string) => unknown): number {
  for (const code of codes.slice(0, Math.min(300, CODES))) draw(`${code}w`);
  const start = process.cpuUsage();
  for (const code of codes) draw(code);
  const used = process.cpuUsage(start);
  const micros = (used.user + used.system) / CODES;
  console.log(`| ${label} | ${micros.toFixed(0)} |`);
  return micros;
}

console.log(`\nPIX QR images, ${CODES} different codes a row (CPU µs each)`);
console.log('| what | µs |\n|---|---|');
const theirsSymbol = time('`qrcode` symbol (its segments and mask search)', (code) => QRCode.create(code, { errorCorrectionLevel: 'M' }));
const oursSymbol = time("the gateway's symbol (server/lib/qrSymbol.ts)", qrSymbol);
const theirsImage = time("`qrcode` symbol drawn into the gateway's PNG", (code) => `data:image/png;base64,${theirPng(code).toString('base64')}`);
const oursImage = time("the gateway's PNG data URL (qrPng)", (code) => `data:image/png;base64,${qrPng(code).toString('base64')}`);
const versions = new Set(codes.map((code) => qrSymbol(code).version));
console.log(
  `symbol ${(theirsSymbol / oursSymbol).toFixed(1)}× faster, image ${(theirsImage / oursImage).toFixed(1)}× faster; versions ${[...versions].join(', ')} (the same as \`qrcode\`'s: tests/unit/lib/qrSymbol.test.ts)`,
);
