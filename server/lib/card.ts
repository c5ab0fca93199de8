import { createCipheriv, createDecipheriv, createHash, randomBytes, randomInt } from 'node:crypto';
import { removeAccents } from '@brazilian-utils/brazilian-utils/remove-accents';
import { digitsOnly } from './documents.js';
import { catalogueError } from './providerMessages.js';

/** Card data as a caller sends it; it is never stored. */
export interface CardInput {
  cardNumber: string;
  holderName: string;
  holderDocument: string;
  expMonth: string;
  expYear: string;
  cvv: string;
}

/**
 * Card rules (spec doc 1 §3, §5, §9) and the gateway's own card token.
 * Nothing here logs, and no error message carries a card value: errors name the
 * field at fault only.
 */

/** Card numbers travel masked ("4111 1111-1111 1111"); providers want digits. */
export function cardDigits(cardNumber: string): string {
  return digitsOnly(cardNumber);
}

/** "30" → "2030" (2000 plus the two-digit year); "2030" passes through. A string, as card fields are. */
export function fourDigitYear(expYear: string | number): string {
  const text = String(expYear).trim();
  if (/^\d{2}$/.test(text)) return String(2000 + Number(text));
  if (/^\d{4}$/.test(text)) return text;
  throw catalogueError('INVALID_CARD_EXPIRY_YEAR', { field: 'expYear' });
}

/**
 * The card as the tokenising APIs of doc 3 take it (Rapdyn's POST /card-token,
 * Lumina's /transaction.tokenize): `{number, holderName, expirationMonth,
 * expirationYear, cvv}`, the number as digits, the month two digits, the year four.
 */
export const tokenizableCard = (card: CardInput) => ({
  number: cardDigits(card.cardNumber),
  holderName: card.holderName,
  expirationMonth: card.expMonth.padStart(2, '0'),
  expirationYear: fourDigitYear(card.expYear),
  cvv: card.cvv,
});

export const STATEMENT_DESCRIPTOR_MAX_LENGTH = 13;
const DESCRIPTOR_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

/** 13 upper-case letters and digits from a CSPRNG: the descriptor doubles as a hard-to-guess reference. */
export function randomStatementDescriptor(): string {
  let text = '';
  for (let index = 0; index < STATEMENT_DESCRIPTOR_MAX_LENGTH; index += 1) {
    text += DESCRIPTOR_ALPHABET[randomInt(DESCRIPTOR_ALPHABET.length)];
  }
  return text;
}

/**
 * At most 13 alphanumerics. Accents are removed before stripping so "São João"
 * keeps its letters ("SaoJoao") instead of losing them; card networks print ASCII.
 * When nothing usable is left, the random default.
 */
export function statementDescriptor(text?: string): string {
  const kept = removeAccents(text ?? '')
    .replace(/[^A-Za-z0-9]/g, '')
    .slice(0, STATEMENT_DESCRIPTOR_MAX_LENGTH);
  return kept || randomStatementDescriptor();
}

/*
 * The gateway's card token (doc 1 §3: "an encrypted string of the card fields
 * joined by a separator"; doc 2 §9: AES-256-GCM with a 12-byte IV).
 * Plaintext: cardNumber|holderName|holderDocument|expMonth|expYear|cvv. '|' is
 * the separator because no card field legitimately contains it; a field that
 * does is refused rather than escaped, so decryption is a plain split.
 * Token: base64(iv[12] | tag[16] | ciphertext). `aad`, when given, is
 * authenticated with it (GCM's additional data): the same bytes must be given to
 * open it (the gateway's token binds its account and expiry this way).
 */
export const CARD_TOKEN_SEPARATOR = '|';
const CARD_FIELDS = ['cardNumber', 'holderName', 'holderDocument', 'expMonth', 'expYear', 'cvv'] as const satisfies readonly (keyof CardInput)[];
const IV_LENGTH = 12;
const TAG_LENGTH = 16;

/**
 * The platform's private key is stored base64-encoded, but its content is not
 * specified (it may be a raw 32-byte key or, e.g., a PEM). Decoded 32 bytes are
 * used as the AES-256 key directly; anything else is hashed with SHA-256 to
 * give 32 bytes, so every platform key works and the same key always derives
 * the same AES key.
 */
function cardTokenKey(base64PrivateKey: string): Buffer {
  const decoded = Buffer.from(base64PrivateKey.trim(), 'base64');
  if (decoded.length === 0) throw catalogueError('CARD_TOKEN_KEY_MISSING');
  return decoded.length === 32 ? decoded : createHash('sha256').update(decoded).digest();
}

export function encryptCardToken(card: CardInput, base64PrivateKey: string, aad?: Buffer): string {
  for (const field of CARD_FIELDS) {
    if (card[field].includes(CARD_TOKEN_SEPARATOR)) throw catalogueError('CARD_FIELD_HAS_SEPARATOR', { field });
  }
  const key = cardTokenKey(base64PrivateKey);
  const iv = randomBytes(IV_LENGTH);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  if (aad) cipher.setAAD(aad);
  const plaintext = CARD_FIELDS.map((field) => card[field]).join(CARD_TOKEN_SEPARATOR);
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), ciphertext]).toString('base64');
}

/** Any failure (wrong key, tampering, truncation, bad shape) is one INVALID_ARGUMENT with no detail, so nothing about the card leaks. */
export function decryptCardToken(token: string, base64PrivateKey: string, aad?: Buffer): CardInput {
  const key = cardTokenKey(base64PrivateKey);
  const raw = Buffer.from(token, 'base64');
  if (raw.length < IV_LENGTH + TAG_LENGTH) throw catalogueError('INVALID_CARD_TOKEN', { field: 'cardId' });
  let plaintext: string;
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, IV_LENGTH), { authTagLength: TAG_LENGTH });
    decipher.setAuthTag(raw.subarray(IV_LENGTH, IV_LENGTH + TAG_LENGTH));
    if (aad) decipher.setAAD(aad);
    plaintext = Buffer.concat([decipher.update(raw.subarray(IV_LENGTH + TAG_LENGTH)), decipher.final()]).toString('utf8');
  } catch {
    throw catalogueError('INVALID_CARD_TOKEN', { field: 'cardId' });
  }
  const values = plaintext.split(CARD_TOKEN_SEPARATOR);
  if (values.length !== CARD_FIELDS.length) throw catalogueError('INVALID_CARD_TOKEN', { field: 'cardId' });
  const [cardNumber, holderName, holderDocument, expMonth, expYear, cvv] = values as [string, string, string, string, string, string];
  return { cardNumber, holderName, holderDocument, expMonth, expYear, cvv };
}
