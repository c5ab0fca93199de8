/**
 * A QR Code symbol (ISO/IEC 18004, model 2) at error correction level M, drawn for the PIX images the gateway answers
 * (issue 31 §2: the `qrcode` package spent about 0.9 ms of a charge's CPU on one symbol, half of it searching the
 * mask and a third choosing the segments; this chooses the segments in one pass over the bytes and scores the masks
 * 31 lines at a time, in the bits of 32-bit words).
 *
 * What it does, in the standard's order:
 * - the text's UTF-8 bytes split into numeric, alphanumeric and byte segments of the fewest bits (a shortest path
 *   over the characters, for each of the three widths of the character count), so the symbol is the smallest
 *   version the text fits in;
 * - the bit stream (mode, count, data, terminator, pad codewords), its Reed–Solomon blocks and their interleaving;
 * - the function patterns, the data in its zigzag, and the mask of the lowest penalty (rules N1–N4, each mask scored
 *   with its own format information in place; the first of equal scores wins).
 *
 * The penalty's rules are read as the `qrcode` package reads them (a finder-like run counted only inside the symbol;
 * the balance of dark modules in whole steps of 5 % from 50 %), so a symbol here is module for module the one that
 * package draws for the same segments: tests/unit/lib/qrSymbol.test.ts holds the two side by side.
 */

/** The symbol: `size` × `size` modules, row by row, 1 for dark. */
export interface QrSymbol {
  version: number;
  size: number;
  mask: number;
  modules: Uint8Array;
}

export type SegmentMode = 'numeric' | 'alphanumeric' | 'byte';

/** A run of the text's bytes written in one mode. */
export interface Segment {
  mode: SegmentMode;
  bytes: Uint8Array;
}

const MODES: readonly SegmentMode[] = ['numeric', 'alphanumeric', 'byte'];
const MODE_INDICATOR: Record<SegmentMode, number> = { numeric: 0b0001, alphanumeric: 0b0010, byte: 0b0100 };
/** Bits of a segment's character count, for versions 1–9, 10–26 and 27–40. */
const COUNT_BITS: Record<SegmentMode, readonly [number, number, number]> = {
  numeric: [10, 12, 14],
  alphanumeric: [9, 11, 13],
  byte: [8, 16, 16],
};
/** A character's cost in sixths of a bit: 10 bits per 3 digits, 11 per 2 alphanumerics, 8 per byte. */
const CHAR_COST: Record<SegmentMode, number> = { numeric: 20, alphanumeric: 33, byte: 48 };
const ALPHANUMERIC = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ $%*+-./:';

/** Error correction codewords per block at level M, by version (index 0 unused). */
const EC_PER_BLOCK_M = [
  0, 10, 16, 26, 18, 24, 16, 18, 22, 22, 26, 30, 22, 22, 24, 24, 28, 28, 26, 26, 26, 26, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28,
  28,
];
/** Blocks at level M, by version (index 0 unused). */
const BLOCKS_M = [
  0, 1, 1, 1, 2, 2, 4, 4, 4, 5, 5, 5, 8, 9, 9, 10, 10, 11, 13, 14, 16, 17, 17, 18, 20, 21, 23, 25, 26, 28, 29, 31, 33, 35, 37, 38, 40, 43, 45, 47, 49,
];
/** Level M's two bits in the format information. */
const FORMAT_LEVEL_M = 0b00;

const UTF8 = new TextEncoder();
const alphanumericValue = new Int8Array(128).fill(-1);
for (let i = 0; i < ALPHANUMERIC.length; i += 1) alphanumericValue[ALPHANUMERIC.charCodeAt(i)] = i;

function isDigit(byte: number): boolean {
  return byte >= 0x30 && byte <= 0x39;
}

function isAlphanumeric(byte: number): boolean {
  return byte < 128 && alphanumericValue[byte]! >= 0;
}

function widthIndex(version: number): 0 | 1 | 2 {
  return version <= 9 ? 0 : version <= 26 ? 1 : 2;
}

/** Modules left for codewords once the function patterns are drawn. */
function rawDataModules(version: number): number {
  let modules = (16 * version + 128) * version + 64;
  if (version >= 2) {
    const alignments = Math.floor(version / 7) + 2;
    modules -= (25 * alignments - 10) * alignments - 55;
    if (version >= 7) modules -= 36;
  }
  return modules;
}

function dataCodewords(version: number): number {
  return Math.floor(rawDataModules(version) / 8) - EC_PER_BLOCK_M[version]! * BLOCKS_M[version]!;
}

/**
 * The bytes split into the segments of the fewest bits for one width of the character counts: for each byte and mode,
 * the cheapest way to have written everything so far ending in that mode (sixths of a bit, a segment's fractional
 * last bits rounded up when it ends), then read back from the cheapest end.
 */
export function optimalSegments(bytes: Uint8Array, width: 0 | 1 | 2): Segment[] {
  if (bytes.length === 0) return [];
  const head = MODES.map((mode) => (4 + COUNT_BITS[mode][width]) * 6);
  // The cheapest cost so far ending in each mode, and this byte's (two arrays swapped at each byte, nothing allocated).
  let previous = Float64Array.from(head);
  let current = new Float64Array(3);
  const written = new Float64Array(3);
  const came = new Int8Array(3);
  // For each byte and mode it ends in: the mode that byte itself was written in (-1: it cannot end in that mode).
  const from = new Int8Array(bytes.length * 3);
  for (let i = 0; i < bytes.length; i += 1) {
    const byte = bytes[i]!;
    current[0] = isDigit(byte) ? previous[0]! + CHAR_COST.numeric : Infinity;
    current[1] = isAlphanumeric(byte) ? previous[1]! + CHAR_COST.alphanumeric : Infinity;
    current[2] = previous[2]! + CHAR_COST.byte;
    // A new segment may start after this byte: the one that ended is rounded up to whole bits, the new one's header added.
    for (let end = 0; end < 3; end += 1) {
      written[end] = current[end]!;
      came[end] = current[end] === Infinity ? -1 : end;
    }
    for (let to = 0; to < 3; to += 1) {
      for (let end = 0; end < 3; end += 1) {
        if (written[end] === Infinity) continue;
        const cost = Math.ceil(written[end]! / 6) * 6 + head[to]!;
        if (came[to] === -1 || cost < current[to]!) {
          current[to] = cost;
          came[to] = end;
        }
      }
    }
    for (let mode = 0; mode < 3; mode += 1) from[i * 3 + mode] = came[mode]!;
    const done = previous;
    previous = current;
    current = done;
  }
  let mode = 0;
  for (let m = 1; m < 3; m += 1) if (previous[m]! < previous[mode]!) mode = m;
  const modes = new Uint8Array(bytes.length);
  for (let i = bytes.length - 1; i >= 0; i -= 1) {
    mode = from[i * 3 + mode]!;
    modes[i] = mode;
  }
  const segments: Segment[] = [];
  let start = 0;
  for (let i = 1; i <= bytes.length; i += 1) {
    if (i === bytes.length || modes[i] !== modes[start]) {
      segments.push({ mode: MODES[modes[start]!]!, bytes: bytes.subarray(start, i) });
      start = i;
    }
  }
  return segments;
}

function segmentBits(segment: Segment, width: 0 | 1 | 2): number {
  const n = segment.bytes.length;
  const data =
    segment.mode === 'numeric' ? Math.floor(n / 3) * 10 + [0, 4, 7][n % 3]! : segment.mode === 'alphanumeric' ? Math.floor(n / 2) * 11 + (n % 2) * 6 : n * 8;
  return 4 + COUNT_BITS[segment.mode][width] + data;
}

/** Bits appended most significant first into a growing byte array. */
class BitWriter {
  readonly bytes: Uint8Array;
  length = 0;

  constructor(capacityBytes: number) {
    this.bytes = new Uint8Array(capacityBytes);
  }

  put(value: number, bits: number): void {
    for (let i = bits - 1; i >= 0; i -= 1) {
      if ((value >>> i) & 1) this.bytes[this.length >>> 3]! |= 0x80 >>> (this.length & 7);
      this.length += 1;
    }
  }
}

/** The data codewords: each segment, the terminator, zero bits to a whole byte, then 0xEC and 0x11 in turn. */
function dataStream(segments: readonly Segment[], version: number): Uint8Array {
  const capacity = dataCodewords(version);
  const width = widthIndex(version);
  const writer = new BitWriter(capacity);
  for (const { mode, bytes } of segments) {
    writer.put(MODE_INDICATOR[mode], 4);
    writer.put(bytes.length, COUNT_BITS[mode][width]);
    if (mode === 'numeric') {
      for (let i = 0; i < bytes.length; i += 3) {
        const digits = Math.min(3, bytes.length - i);
        let value = 0;
        for (let k = 0; k < digits; k += 1) value = value * 10 + (bytes[i + k]! - 0x30);
        writer.put(value, digits * 3 + 1);
      }
    } else if (mode === 'alphanumeric') {
      for (let i = 0; i < bytes.length; i += 2) {
        if (i + 1 < bytes.length) writer.put(alphanumericValue[bytes[i]!]! * 45 + alphanumericValue[bytes[i + 1]!]!, 11);
        else writer.put(alphanumericValue[bytes[i]!]!, 6);
      }
    } else {
      for (const byte of bytes) writer.put(byte, 8);
    }
  }
  writer.put(0, Math.min(4, capacity * 8 - writer.length));
  writer.length = Math.ceil(writer.length / 8) * 8;
  for (let i = writer.length / 8, pad = 0xec; i < capacity; i += 1, pad ^= 0xec ^ 0x11) writer.bytes[i] = pad;
  return writer.bytes;
}

// GF(256) with the primitive polynomial x^8 + x^4 + x^3 + x^2 + 1.
const EXP = new Uint8Array(512);
const LOG = new Uint8Array(256);
for (let i = 0, x = 1; i < 255; i += 1) {
  EXP[i] = x;
  LOG[x] = i;
  x <<= 1;
  if (x & 0x100) x ^= 0x11d;
}
for (let i = 255; i < 512; i += 1) EXP[i] = EXP[i - 255]!;

const generators = new Map<number, Uint8Array>();

/** The generator polynomial of `degree` (its coefficients after the leading 1, highest power first). */
function generator(degree: number): Uint8Array {
  let poly = generators.get(degree);
  if (poly) return poly;
  poly = new Uint8Array(degree);
  poly[degree - 1] = 1;
  let root = 1;
  for (let i = 0; i < degree; i += 1) {
    // Multiply by (x - root).
    for (let j = 0; j < degree; j += 1) {
      poly[j] = multiply(poly[j]!, root);
      if (j + 1 < degree) poly[j]! ^= poly[j + 1]!;
    }
    root = multiply(root, 0x02);
  }
  generators.set(degree, poly);
  return poly;
}

function multiply(a: number, b: number): number {
  return a === 0 || b === 0 ? 0 : EXP[LOG[a]! + LOG[b]!]!;
}

/** The Reed–Solomon remainder of `data` by the generator of `degree`. */
function errorCorrection(data: Uint8Array, degree: number): Uint8Array {
  const poly = generator(degree);
  const remainder = new Uint8Array(degree);
  for (const byte of data) {
    const factor = byte ^ remainder[0]!;
    remainder.copyWithin(0, 1);
    remainder[degree - 1] = 0;
    if (factor === 0) continue;
    const logFactor = LOG[factor]!;
    for (let j = 0; j < degree; j += 1) if (poly[j]) remainder[j]! ^= EXP[LOG[poly[j]!]! + logFactor]!;
  }
  return remainder;
}

/** The codewords in the order they are placed: the blocks' data interleaved, then their error correction. */
function codewords(data: Uint8Array, version: number): Uint8Array {
  const blocks = BLOCKS_M[version]!;
  const ecLength = EC_PER_BLOCK_M[version]!;
  const total = Math.floor(rawDataModules(version) / 8);
  const longBlocks = total % blocks;
  const shortData = Math.floor(total / blocks) - ecLength;
  const dataBlocks: Uint8Array[] = [];
  const ecBlocks: Uint8Array[] = [];
  for (let b = 0, offset = 0; b < blocks; b += 1) {
    const length = shortData + (b >= blocks - longBlocks ? 1 : 0);
    const block = data.subarray(offset, offset + length);
    offset += length;
    dataBlocks.push(block);
    ecBlocks.push(errorCorrection(block, ecLength));
  }
  const out = new Uint8Array(total);
  let k = 0;
  for (let i = 0; i <= shortData; i += 1) for (const block of dataBlocks) if (i < block.length) out[k++] = block[i]!;
  for (let i = 0; i < ecLength; i += 1) for (const block of ecBlocks) out[k++] = block[i]!;
  return out;
}

function alignmentPositions(version: number): number[] {
  if (version === 1) return [];
  const count = Math.floor(version / 7) + 2;
  const size = version * 4 + 17;
  const step = version === 32 ? 26 : Math.ceil((version * 4 + 4) / (count * 2 - 2)) * 2;
  const positions = [6];
  for (let position = size - 7; positions.length < count; position -= step) positions.splice(1, 0, position);
  return positions;
}

/** The 15 bits of format information for level M and a mask (BCH(15,5), then XOR 0x5412). */
function formatBits(mask: number): number {
  const data = (FORMAT_LEVEL_M << 3) | mask;
  let remainder = data;
  for (let i = 0; i < 10; i += 1) remainder = (remainder << 1) ^ ((remainder >>> 9) * 0x537);
  return ((data << 10) | remainder) ^ 0x5412;
}

/** The 18 bits of version information (BCH(18,6)), for versions 7 and up. */
function versionBits(version: number): number {
  let remainder = version;
  for (let i = 0; i < 12; i += 1) remainder = (remainder << 1) ^ ((remainder >>> 11) * 0x1f25);
  return (version << 12) | remainder;
}

/** A symbol being drawn: its modules and which of them are function patterns (never masked, never data). */
class Matrix {
  readonly modules: Uint8Array;
  readonly reserved: Uint8Array;

  constructor(readonly size: number) {
    this.modules = wordAligned(size * size);
    this.reserved = new Uint8Array(size * size);
  }

  set(row: number, column: number, dark: boolean): void {
    this.modules[row * this.size + column] = dark ? 1 : 0;
    this.reserved[row * this.size + column] = 1;
  }
}

function drawFunctionPatterns(matrix: Matrix, version: number): void {
  const { size } = matrix;
  for (let i = 0; i < size; i += 1) {
    matrix.set(6, i, i % 2 === 0);
    matrix.set(i, 6, i % 2 === 0);
  }
  for (const [row, column] of [
    [3, 3],
    [3, size - 4],
    [size - 4, 3],
  ] as const) {
    // The finder and its light separator: rings by distance from the centre.
    for (let dy = -4; dy <= 4; dy += 1) {
      for (let dx = -4; dx <= 4; dx += 1) {
        const r = row + dy;
        const c = column + dx;
        if (r < 0 || r >= size || c < 0 || c >= size) continue;
        const ring = Math.max(Math.abs(dx), Math.abs(dy));
        matrix.set(r, c, ring !== 2 && ring !== 4);
      }
    }
  }
  const positions = alignmentPositions(version);
  const last = positions.length - 1;
  for (let i = 0; i <= last; i += 1) {
    for (let j = 0; j <= last; j += 1) {
      if ((i === 0 && j === 0) || (i === 0 && j === last) || (i === last && j === 0)) continue;
      for (let dy = -2; dy <= 2; dy += 1) {
        for (let dx = -2; dx <= 2; dx += 1) matrix.set(positions[i]! + dy, positions[j]! + dx, Math.max(Math.abs(dx), Math.abs(dy)) !== 1);
      }
    }
  }
  drawFormat(matrix, 0);
  if (version >= 7) {
    const bits = versionBits(version);
    for (let i = 0; i < 18; i += 1) {
      const dark = ((bits >>> i) & 1) === 1;
      const a = size - 11 + (i % 3);
      const b = Math.floor(i / 3);
      matrix.set(b, a, dark);
      matrix.set(a, b, dark);
    }
  }
}

/** The format information's two copies, and the dark module beside the lower-left one. */
function drawFormat(matrix: Matrix, mask: number): void {
  const { size } = matrix;
  const bits = formatBits(mask);
  const bit = (i: number): boolean => ((bits >>> i) & 1) === 1;
  for (let i = 0; i <= 5; i += 1) matrix.set(i, 8, bit(i));
  matrix.set(7, 8, bit(6));
  matrix.set(8, 8, bit(7));
  matrix.set(8, 7, bit(8));
  for (let i = 9; i < 15; i += 1) matrix.set(8, 14 - i, bit(i));
  for (let i = 0; i < 8; i += 1) matrix.set(8, size - 1 - i, bit(i));
  for (let i = 8; i < 15; i += 1) matrix.set(size - 15 + i, 8, bit(i));
  matrix.set(size - 8, 8, true);
}

/** The codewords' bits in the two-column zigzag from the lower right, around the function patterns. */
function drawCodewords(matrix: Matrix, data: Uint8Array): void {
  const { size, modules, reserved } = matrix;
  let i = 0;
  const bits = data.length * 8;
  for (let right = size - 1; right >= 1; right -= 2) {
    if (right === 6) right = 5;
    const upward = ((right + 1) & 2) === 0;
    for (let step = 0; step < size; step += 1) {
      const row = upward ? size - 1 - step : step;
      for (let j = 0; j < 2; j += 1) {
        const index = row * size + right - j;
        if (reserved[index]) continue;
        if (i < bits) modules[index] = (data[i >>> 3]! >>> (7 - (i & 7))) & 1;
        i += 1;
      }
    }
  }
}

/** Whether mask `mask` darkens (inverts) the module at `row`, `column`. */
function masked(mask: number, row: number, column: number): boolean {
  switch (mask) {
    case 0:
      return (row + column) % 2 === 0;
    case 1:
      return row % 2 === 0;
    case 2:
      return column % 3 === 0;
    case 3:
      return (row + column) % 3 === 0;
    case 4:
      return (Math.floor(row / 2) + Math.floor(column / 3)) % 2 === 0;
    case 5:
      return ((row * column) % 2) + ((row * column) % 3) === 0;
    case 6:
      return (((row * column) % 2) + ((row * column) % 3)) % 2 === 0;
    default:
      return (((row + column) % 2) + ((row * column) % 3)) % 2 === 0;
  }
}

/**
 * The penalty's rules read 31 lines at a time: a line's module is one bit of a 32-bit word, so one pass over the words
 * of a block scores its lines together with a few bitwise operations (issue 31: module by module, the eight masks'
 * scores were about three quarters of a PIX image's drawing). `across` holds the symbol's rows in the bits (bit `i`
 * of word `b × size + c` is row `31b + i`, column `c`); `down` the same of the symbol turned over (bit `i` of word
 * `b × size + r` is row `r`, column `31b + i`). A block's 32nd bit repeats the next block's first line, so the
 * blocks' 2×2 squares across their edge are counted as well.
 */
interface Packed {
  across: Int32Array;
  down: Int32Array;
}

/** Lines in a block that count as its own (its 32nd repeats the next block's first). */
const LINES_PER_BLOCK = 31;

function blocksOf(size: number): number {
  return Math.ceil(size / LINES_PER_BLOCK);
}

/** The lowest `lines` bits set (0 to 31 of them). */
function lowBits(lines: number): number {
  return lines >= LINES_PER_BLOCK ? 0x7fffffff : lines <= 0 ? 0 : (1 << lines) - 1;
}

/** Bits set in a 32-bit word. */
function ones(word: number): number {
  let v = word - ((word >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return Math.imul((v + (v >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24;
}

function pack(modules: Uint8Array, size: number): Packed {
  const blocks = blocksOf(size);
  const across = new Int32Array(blocks * size);
  const down = new Int32Array(blocks * size);
  for (let block = 0; block < blocks; block += 1) {
    const base = block * size;
    for (let bit = 0, line = block * LINES_PER_BLOCK; bit < 32 && line < size; bit += 1, line += 1) {
      for (let k = 0, row = line * size; k < size; k += 1) {
        across[base + k]! |= modules[row + k]! << bit;
        down[base + k]! |= modules[k * size + line]! << bit;
      }
    }
  }
  return { across, down };
}

/**
 * For a version, each mask as it changes a symbol drawn with mask 0's format information: the data modules it
 * darkens (inverts), and the format modules where its own format information differs from mask 0's. Function
 * patterns are never masked, and which modules are function patterns depends on the version alone, so the layers
 * are kept once drawn, up to version 20 (PIX codes fit in 6 to 10; all twenty versions' layers are 0.84 MB), and
 * drawn each time above.
 */
interface MaskLayer extends Packed {
  modules: Uint8Array;
}

const maskLayers = new Map<number, MaskLayer[]>();
const LAYERS_KEPT_UP_TO = 20;

function masksOf(matrix: Matrix, version: number): MaskLayer[] {
  let layers = maskLayers.get(version);
  if (layers) return layers;
  const { size, reserved } = matrix;
  const firstFormat = new Matrix(size);
  drawFormat(firstFormat, 0);
  layers = [];
  for (let mask = 0; mask < 8; mask += 1) {
    const ownFormat = new Matrix(size);
    drawFormat(ownFormat, mask);
    const modules = wordAligned(size * size);
    for (let row = 0; row < size; row += 1) {
      for (let column = 0; column < size; column += 1) {
        const index = row * size + column;
        if (!reserved[index]) modules[index] = masked(mask, row, column) ? 1 : 0;
        else modules[index] = firstFormat.modules[index]! ^ ownFormat.modules[index]!;
      }
    }
    layers.push({ modules, ...pack(modules, size) });
  }
  if (version <= LAYERS_KEPT_UP_TO) maskLayers.set(version, layers);
  return layers;
}

/** `target` set to `modules` with `layer` applied, four modules at a time (the three arrays are `words` long). */
function applyMask(target: Uint8Array, modules: Uint8Array, layer: Uint8Array): void {
  const out = new Uint32Array(target.buffer);
  const a = new Uint32Array(modules.buffer);
  const b = new Uint32Array(layer.buffer);
  for (let i = 0; i < out.length; i += 1) out[i] = a[i]! ^ b[i]!;
}

/** A byte array of `length` whose buffer is a whole number of 32-bit words (the modules' arrays, XORed by words). */
function wordAligned(length: number): Uint8Array {
  return new Uint8Array(new ArrayBuffer(Math.ceil(length / 4) * 4), 0, length);
}

/** The standard's penalty: runs of five or more (N1), 2×2 blocks (N2), finder-like runs (N3), dark balance (N4). */
export function penalty(modules: Uint8Array, size: number): number {
  return packedPenalty(pack(modules, size), size);
}

function packedPenalty({ across, down }: Packed, size: number): number {
  return lines(across, size) + lines(down, size) + blocksAndBalance(across, size);
}

/** The mask of the lowest penalty for the symbol drawn in `matrix` (mask 0's format in place); the first of equal scores. */
function bestMask(matrix: Matrix, layers: readonly MaskLayer[]): number {
  const { size } = matrix;
  const symbol = pack(matrix.modules, size);
  const candidate: Packed = { across: new Int32Array(symbol.across.length), down: new Int32Array(symbol.down.length) };
  let best = 0;
  let lowest = Infinity;
  for (let mask = 0; mask < 8; mask += 1) {
    const layer = layers[mask]!;
    for (let i = 0; i < symbol.across.length; i += 1) {
      candidate.across[i] = symbol.across[i]! ^ layer.across[i]!;
      candidate.down[i] = symbol.down[i]! ^ layer.down[i]!;
    }
    const score = packedPenalty(candidate, size);
    if (score < lowest) {
      lowest = score;
      best = mask;
    }
  }
  return best;
}

/**
 * N1 and N3 along the lines packed in `words` (every row in `across`, every column in `down`): each run of five or more
 * of one colour scores its length − 2, counted as one point for each five in a row it holds and two more where it
 * starts; each 11-module window that looks like a finder (dark-light-dark-dark-dark-light-dark and four light, either
 * way round) scores 40.
 */
function lines(words: Int32Array, size: number): number {
  let score = 0;
  for (let block = 0, base = 0; base < words.length; block += 1, base += size) {
    const own = lowBits(size - block * LINES_PER_BLOCK);
    // Whether each line's module at k − 1, k − 2, k − 3 and k − 4 is the colour of the one before it.
    let same1 = 0;
    let same2 = 0;
    let same3 = 0;
    let same4 = 0;
    for (let k = 1, i = base + 1; k < size; k += 1, i += 1) {
      const same = ~(words[i]! ^ words[i - 1]!);
      if (k >= 4) {
        const five = same & same1 & same2 & same3 & own;
        score += ones(five) + 2 * ones(k === 4 ? five : five & ~same4);
      }
      if (k >= 10) {
        const middle = words[i - 6]! & ~words[i - 5]! & words[i - 4]!;
        const lightAfter = ~(words[i - 3]! | words[i - 2]! | words[i - 1]! | words[i]!);
        const lightBefore = ~(words[i - 10]! | words[i - 9]! | words[i - 8]! | words[i - 7]!);
        const forward = words[i - 10]! & ~words[i - 9]! & words[i - 8]! & words[i - 7]! & lightAfter;
        const backward = lightBefore & words[i - 3]! & words[i - 2]! & ~words[i - 1]! & words[i]!;
        score += 40 * ones(middle & (forward | backward) & own);
      }
      same4 = same3;
      same3 = same2;
      same2 = same1;
      same1 = same;
    }
  }
  return score;
}

/** N2 (2×2 blocks of one colour) and N4 (the dark modules' share, in whole steps of 5 % from 50 %), from `across`. */
function blocksAndBalance(across: Int32Array, size: number): number {
  let squares = 0;
  let dark = 0;
  for (let block = 0, base = 0; base < across.length; block += 1, base += size) {
    const own = lowBits(size - block * LINES_PER_BLOCK);
    // A row with a row below it in this block's bits.
    const upper = lowBits(size - 1 - block * LINES_PER_BLOCK);
    let previous = 0;
    let previousVertical = 0;
    for (let k = 0, i = base; k < size; k += 1, i += 1) {
      const word = across[i]!;
      dark += ones(word & own);
      // Each row's module the colour of the one below it, in this column.
      const vertical = ~(word ^ (word >>> 1));
      if (k > 0) squares += ones(vertical & previousVertical & ~(word ^ previous) & upper);
      previous = word;
      previousVertical = vertical;
    }
  }
  return squares * 3 + Math.abs(Math.ceil((dark * 100) / (size * size) / 5) - 10) * 10;
}

/** The smallest version the text's bytes fit in at level M, with the segments of the fewest bits for it. */
function fit(bytes: Uint8Array): { version: number; segments: Segment[] } {
  for (const [first, last] of [
    [1, 9],
    [10, 26],
    [27, 40],
  ] as const) {
    const width = widthIndex(first);
    const segments = optimalSegments(bytes, width);
    const bits = segments.reduce((sum, segment) => sum + segmentBits(segment, width), 0);
    for (let version = first; version <= last; version += 1) if (bits <= dataCodewords(version) * 8) return { version, segments };
  }
  throw new RangeError(`a QR code at error correction level M holds at most 2,331 bytes; this text has ${bytes.length}`);
}

/** The text's symbol at level M, in the smallest version, with the segments of the fewest bits and the best mask. */
export function qrSymbol(text: string): QrSymbol {
  const { version, segments } = fit(UTF8.encode(text));
  return drawSymbol(segments, version);
}

/**
 * The symbol of the given segments in `version`; `mask` forces a mask (for tests set against another encoder),
 * otherwise each is scored and the lowest penalty kept.
 */
export function drawSymbol(segments: readonly Segment[], version: number, mask?: number): QrSymbol {
  const size = version * 4 + 17;
  const matrix = new Matrix(size);
  drawFunctionPatterns(matrix, version);
  drawCodewords(matrix, codewords(dataStream(segments, version), version));
  const layers = masksOf(matrix, version);
  const best = mask ?? bestMask(matrix, layers);
  const modules = wordAligned(size * size);
  applyMask(modules, matrix.modules, layers[best]!.modules);
  return { version, size, mask: best, modules };
}
