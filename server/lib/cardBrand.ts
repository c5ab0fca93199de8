import { cardDigits } from './card.js';

/**
 * A card's brand from its first digits, and its last four: all the gateway keeps of a card (PCI DSS lets both be
 * shown; the number itself never is). Elo and Hipercard are read before Visa, Mastercard and Discover because their
 * BINs sit inside those brands' ranges. Ranges as the brands' published BIN tables give them (Elo's list, ISO/IEC
 * 7812 prefixes of the others); an unknown prefix has no brand rather than a guessed one.
 */
export type CardBrand = 'elo' | 'hipercard' | 'visa' | 'mastercard' | 'amex' | 'diners' | 'discover' | 'jcb';

/** [first, last] six-digit BIN ranges, inclusive. */
type Ranges = readonly (readonly [number, number])[];
const single = (...bins: number[]): Ranges => bins.map((bin) => [bin, bin] as const);

const ELO: Ranges = [
  ...single(401178, 401179, 431274, 438935, 451416, 457393, 457631, 457632, 504175, 627780, 636297, 636368),
  [506699, 506778],
  [509000, 509999],
  [650031, 650033],
  [650035, 650051],
  [650405, 650439],
  [650485, 650538],
  [650541, 650598],
  [650700, 650718],
  [650720, 650727],
  [650901, 650978],
  [651652, 651679],
  [655000, 655019],
  [655021, 655058],
];
const HIPERCARD: Ranges = single(606282, 384100, 384140, 384160);

/** The other brands by leading digits, [from, to] of the first `digits` digits. */
const PREFIXES: readonly { brand: CardBrand; digits: number; from: number; to: number }[] = [
  { brand: 'amex', digits: 2, from: 34, to: 34 },
  { brand: 'amex', digits: 2, from: 37, to: 37 },
  { brand: 'diners', digits: 3, from: 300, to: 305 },
  { brand: 'diners', digits: 2, from: 36, to: 36 },
  { brand: 'diners', digits: 2, from: 38, to: 39 },
  { brand: 'jcb', digits: 4, from: 3528, to: 3589 },
  { brand: 'mastercard', digits: 2, from: 51, to: 55 },
  { brand: 'mastercard', digits: 4, from: 2221, to: 2720 },
  { brand: 'discover', digits: 4, from: 6011, to: 6011 },
  { brand: 'discover', digits: 3, from: 644, to: 649 },
  { brand: 'discover', digits: 2, from: 65, to: 65 },
  { brand: 'visa', digits: 1, from: 4, to: 4 },
];

const within = (ranges: Ranges, bin: number) => ranges.some(([first, last]) => bin >= first && bin <= last);

/** The brand of a card number (masked or bare), or undefined when its first digits match none known. */
export function cardBrandOf(cardNumber: string): CardBrand | undefined {
  const digits = cardDigits(cardNumber);
  if (digits.length < 6) return undefined;
  const bin = Number(digits.slice(0, 6));
  if (within(ELO, bin)) return 'elo';
  if (within(HIPERCARD, bin)) return 'hipercard';
  return PREFIXES.find(({ digits: length, from, to }) => {
    const prefix = Number(digits.slice(0, length));
    return prefix >= from && prefix <= to;
  })?.brand;
}

/** What is kept of a card: its brand (where known) and its last four digits. */
export function cardSummary(cardNumber: string): { brand?: CardBrand; last4: string } | undefined {
  const digits = cardDigits(cardNumber);
  if (digits.length < 12) return undefined;
  return { brand: cardBrandOf(digits), last4: digits.slice(-4) };
}
