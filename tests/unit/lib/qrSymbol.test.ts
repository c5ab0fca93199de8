import { describe, expect, it } from '@jest/globals';
import QRCode from 'qrcode';
// The package's own penalty rules, which its mask choice uses (it ships no types for its internal modules).
// @ts-expect-error: no declaration file for the package's internal module
import maskPattern from 'qrcode/lib/core/mask-pattern.js';
import { drawSymbol, optimalSegments, penalty, qrSymbol, type Segment, type QrSymbol } from '../../../server/lib/qrSymbol.js';

/**
 * The gateway's QR encoder set beside the `qrcode` package, the one it replaced: the same segments drawn with each
 * mask must give the same modules (so blocks, error correction, interleaving, placement, format and version
 * information are the standard's), the text must land in the same version, and the mask chosen must be the same.
 */

const PIX =
  '00020101021226880014br.gov.bcb.pix2566qrcodes-pix.example.com.br/v2/cobv/9d36b84fc70b478fb95c12729b90ca25520400005303986540519.905802BR5913Loja Exemplo6008BRASILIA62070503***6304';
const MIXED = 'Pagamento 1234567890 AB:CD São Paulo/SP 000111222333 ' + 'x'.repeat(7);

/** Texts across the versions: PIX codes, a mixed text with a multi-byte character, digits only, alphanumerics only. */
const TEXTS: string[] = [
  '0002012636br.gov.bcb.pix',
  ...Array.from({ length: 12 }, (_, i) => `${PIX}${String(i * 7919).padStart(4, '0')}`),
  ...Array.from({ length: 12 }, (_, i) => MIXED.repeat(40).slice(0, 1 + i * 190)),
  ...Array.from({ length: 6 }, (_, i) => '9'.repeat(1 + i * 690)),
  ...Array.from({ length: 6 }, (_, i) => 'AB:1'.repeat(600).slice(0, 1 + i * 420)),
  'x'.repeat(2331),
];

const utf8 = new TextEncoder();

function modulesOf(symbol: { modules: { size: number; get(row: number, column: number): number | boolean } }): number[] {
  const out: number[] = [];
  for (let row = 0; row < symbol.modules.size; row += 1)
    for (let column = 0; column < symbol.modules.size; column += 1) out.push(symbol.modules.get(row, column) ? 1 : 0);
  return out;
}

function ours(symbol: QrSymbol): number[] {
  return Array.from(symbol.modules);
}

/** `qrcode`'s own choice of segments, as ours and as it takes them back. */
function theirSegments(reference: QRCode.QRCode): { mine: Segment[]; theirs: QRCode.QRCodeSegment[] } {
  const segments = reference.segments as unknown as { mode: { id: string }; data: string | Uint8Array }[];
  const mine = segments.map(({ mode, data }) => ({
    mode: mode.id.toLowerCase() as Segment['mode'],
    bytes: typeof data === 'string' ? utf8.encode(data) : Uint8Array.from(data),
  }));
  const theirs = segments.map(
    ({ mode, data }) => ({ data: typeof data === 'string' ? data : Buffer.from(data), mode: mode.id.toLowerCase() }) as QRCode.QRCodeSegment,
  );
  return { mine, theirs };
}

describe('QR symbol', () => {
  it('covers versions 1 to 40 in these texts', () => {
    const versions = new Set(TEXTS.map((text) => qrSymbol(text).version));
    expect(Math.min(...versions)).toBe(1);
    expect(Math.max(...versions)).toBe(40);
    expect(versions.size).toBeGreaterThanOrEqual(20);
  });

  it.each(TEXTS.map((text) => ({ length: text.length, text })))(
    'draws the $length characters with each mask as qrcode does, in the same version, with the same best mask',
    ({ text }) => {
      const reference = QRCode.create(text, { errorCorrectionLevel: 'M' });
      const { mine, theirs } = theirSegments(reference);
      for (const mask of [0, 1, 2, 3, 4, 5, 6, 7] as const) {
        const forced = QRCode.create(theirs, { errorCorrectionLevel: 'M', version: reference.version, maskPattern: mask });
        expect(ours(drawSymbol(mine, reference.version, mask))).toEqual(modulesOf(forced));
      }
      const chosen = drawSymbol(mine, reference.version);
      expect(chosen.mask).toBe(reference.maskPattern);
      expect(ours(chosen)).toEqual(modulesOf(reference));
      expect(qrSymbol(text).version).toBe(reference.version);
    },
  );

  it('splits text into segments of the fewest bits: digits, then upper-case alphanumerics, then bytes', () => {
    const modes = (text: string) => optimalSegments(utf8.encode(text), 0).map(({ mode, bytes }) => `${mode}:${bytes.length}`);
    expect(modes('0123456789012345678901234567890123456789')).toEqual(['numeric:40']);
    expect(modes('HELLO WORLD 12')).toEqual(['alphanumeric:14']);
    expect(modes('a1')).toEqual(['byte:2']);
    // A long run of digits inside bytes earns its own segment; a short one does not.
    expect(modes(`abc${'1'.repeat(30)}def`)).toEqual(['byte:3', 'numeric:30', 'byte:3']);
    expect(modes('abc12def')).toEqual(['byte:8']);
    // 'é' is two bytes of UTF-8, only ever in a byte segment.
    expect(modes('é')).toEqual(['byte:2']);
    expect(optimalSegments(new Uint8Array(0), 0)).toEqual([]);
  });

  it('scores a mask by the four penalty rules', () => {
    // A 21 × 21 all-light matrix: 42 runs of 21 (N1: 3 + 16 each), 400 blocks (N2: 3 each), no finder-like run
    // (N3), all light (N4: 10 steps of 5 % from half, 10 each).
    expect(penalty(new Uint8Array(21 * 21), 21)).toBe(42 * 19 + 400 * 3 + 100);
  });

  it.each([21, 25, 41, 57, 61, 62, 63, 93, 94, 125, 177])('scores a %i × %i matrix as qrcode does, rule by rule', (size) => {
    // Sizes at the edges of the 31-line blocks the penalty reads its lines in (62, 63, 93, 94) and the versions' ends.
    let seed = size;
    const random = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) >>> 16) & 1;
    const rules = maskPattern as Record<
      `getPenaltyN${1 | 2 | 3 | 4}`,
      (data: { size: number; data: Uint8Array; get(row: number, column: number): number }) => number
    >;
    for (let round = 0; round < 4; round += 1) {
      // Random modules, then long runs and finder-like rows and columns drawn over them.
      const modules = Uint8Array.from({ length: size * size }, random);
      const finder = [1, 0, 1, 1, 1, 0, 1, 0, 0, 0, 0];
      for (let k = 0; k < size; k += 7 + round) {
        for (let j = 0; j < 11 && k + j < size; j += 1) {
          modules[((k * 3) % size) * size + k + j] = round % 2 === 0 ? finder[j]! : finder[10 - j]!;
          modules[(k + j) * size + ((k * 5) % size)] = finder[j]!;
        }
        for (let j = 0; j < 9 && k + j < size; j += 1) modules[((k * 11) % size) * size + k + j] = round & 1;
      }
      const data = { size, data: modules, get: (row: number, column: number) => modules[row * size + column]! };
      const expected = rules.getPenaltyN1(data) + rules.getPenaltyN2(data) + rules.getPenaltyN3(data) + rules.getPenaltyN4(data);
      expect(rules.getPenaltyN3(data)).toBeGreaterThan(0);
      expect(penalty(modules, size)).toBe(expected);
    }
  });

  it('refuses a text no version holds at level M', () => {
    expect(() => qrSymbol('x'.repeat(2332))).toThrow('a QR code at error correction level M holds at most 2,331 bytes; this text has 2332');
    expect(qrSymbol('x'.repeat(2331)).version).toBe(40);
  });
});
