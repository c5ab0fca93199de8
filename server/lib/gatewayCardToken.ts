import { createHash } from 'node:crypto';
import { cardDigits, decryptCardToken, encryptCardToken, fourDigitYear, type CardInput } from './card.js';
import { GatewayError, invalidArgument } from './errors.js';
import { passesLuhn } from './luhn.js';
import type { DerivedKeys } from './secretBox.js';

/**
 * The gateway's own card token, for providers that take card data but tokenise nothing themselves (spec doc 1 §3: "a
 * card token is either a provider token or an encrypted string of the card fields joined by a separator"; doc 2 §9:
 * AES-256-GCM with a 12-byte IV). Its text:
 *
 *   gct_v1.<account id, base64url>.<key version>.<expiry, Unix seconds>.<card.ts's sealed card, base64>
 *
 * The sealed part is encryptCardToken's (the fields joined by '|', iv | tag | ciphertext) under a key of the
 * account's own, derived from the gateway's secrets key and the key version (`CardTokenKeys`); everything before it is
 * authenticated as GCM's additional data, so a token opens only at the account it was made for, under the version it
 * names, with the expiry it says. Changing any character makes it fail to open.
 */
export const GATEWAY_CARD_TOKEN_PREFIX = 'gct_v1';

/**
 * Where the keys come from: 32-byte keys per account and key version (the first seals; during a rotation of the secrets
 * key the other's still opens), and the version new tokens are sealed under.
 */
export interface CardTokenKeys {
  /** New tokens use it; tokens of versions 1 up to it still open until they expire (raising it rotates the key). */
  currentVersion: number;
  keysFor(accountId: string, version: number): DerivedKeys;
}

/** The seal of a token: its text and when it stops opening. */
export interface SealedCardToken {
  token: string;
  expiresAt: Date;
}

/** What a token says of itself once opened (its header is authenticated by then). */
export interface OpenedCardToken {
  card: CardInput;
  expiresAt: Date;
  keyVersion: number;
}

const FIELD = 'transaction.card_id';

/** Whether `text` is meant to be a gateway card token (by its prefix); such a text is never sent to a provider as it is. */
export const isGatewayCardToken = (text: string | undefined): text is string => Boolean(text?.startsWith(`${GATEWAY_CARD_TOKEN_PREFIX}.`));

/** What the gateway keeps of a token it has seen (the use table's key): SHA-256, hex. The token itself is never stored. */
export const cardTokenHash = (token: string): string => createHash('sha256').update(token, 'utf8').digest('hex');

const header = (accountId: string, version: number, expiresAtSeconds: number): string =>
  [GATEWAY_CARD_TOKEN_PREFIX, Buffer.from(accountId, 'utf8').toString('base64url'), String(version), String(expiresAtSeconds)].join('.');

/**
 * The card as the token keeps it, checked: the number as digits passing the Luhn check, a month 1–12 as two digits, a
 * year of 2 or 4 digits as four, a CVV of 3 or 4 digits, a holder name; a card whose month has ended is refused.
 * Errors name the field only, never a value.
 */
export function checkedCard(card: CardInput, now: Date): CardInput {
  const cardNumber = cardDigits(card.cardNumber ?? '');
  if (!passesLuhn(cardNumber)) throw invalidArgument('card.card_number', 'card.card_number is not a valid card number', 'INVALID_VALUE');
  const holderName = (card.holderName ?? '').trim();
  if (!holderName) throw invalidArgument('card.holder_name', 'card.holder_name is required', 'REQUIRED');
  const month = (card.expMonth ?? '').trim();
  if (!/^\d{1,2}$/.test(month) || Number(month) < 1 || Number(month) > 12)
    throw invalidArgument('card.exp_month', 'card.exp_month must be a month from 01 to 12', 'INVALID_VALUE');
  let year: string;
  try {
    year = fourDigitYear(card.expYear ?? '');
  } catch {
    throw invalidArgument('card.exp_year', 'card.exp_year must have 2 or 4 digits', 'INVALID_VALUE');
  }
  // A card is good through the last day of its month.
  if (Date.UTC(Number(year), Number(month), 1) <= now.getTime()) throw invalidArgument('card.exp_year', 'the card has expired', 'INVALID_VALUE');
  const cvv = (card.cvv ?? '').trim();
  if (!/^\d{3,4}$/.test(cvv)) throw invalidArgument('card.cvv', 'card.cvv must have 3 or 4 digits', 'INVALID_VALUE');
  return { cardNumber, holderName, holderDocument: (card.holderDocument ?? '').trim(), expMonth: month.padStart(2, '0'), expYear: year, cvv };
}

/** Seals a checked card for one account, to open until `now + ttlSeconds`. */
export function sealCardToken(card: CardInput, options: { accountId: string; keys: CardTokenKeys; now: Date; ttlSeconds: number }): SealedCardToken {
  const { accountId, keys, now, ttlSeconds } = options;
  const expiresAtSeconds = Math.floor(now.getTime() / 1000) + ttlSeconds;
  const head = header(accountId, keys.currentVersion, expiresAtSeconds);
  const key = keys.keysFor(accountId, keys.currentVersion)[0].toString('base64');
  const sealed = encryptCardToken(checkedCard(card, now), key, Buffer.from(head, 'utf8'));
  return { token: `${head}.${sealed}`, expiresAt: new Date(expiresAtSeconds * 1000) };
}

const invalid = (why: string) =>
  new GatewayError('INVALID_ARGUMENT', `card_id is not a usable card token: ${why}`, { field: FIELD, reason: 'INVALID_CARD_TOKEN' });

/**
 * Opens a token at the account a charge is made for, whatever its expiry, or refuses it with INVALID_ARGUMENT: when it
 * is malformed, made for another account, under a key version this gateway does not know, or altered (it fails to
 * authenticate). Nothing of the card is in any error.
 */
export function authenticateCardToken(token: string, options: { accountId: string; keys: CardTokenKeys }): OpenedCardToken {
  const { accountId, keys } = options;
  const parts = token.split('.');
  if (parts.length !== 5 || parts[0] !== GATEWAY_CARD_TOKEN_PREFIX) throw invalid('it is not a gateway card token');
  const [, encodedAccount, versionText, expiryText, sealed] = parts as [string, string, string, string, string];
  if (Buffer.from(encodedAccount, 'base64url').toString('utf8') !== accountId) throw invalid('it was made for another provider account');
  if (!/^[1-9]\d{0,5}$/.test(versionText) || Number(versionText) > keys.currentVersion) throw invalid('its key version is unknown');
  if (!/^\d{1,12}$/.test(expiryText)) throw invalid('it is not a gateway card token');
  const keyVersion = Number(versionText);
  const head = header(accountId, keyVersion, Number(expiryText));
  // The header as received must be the header as it would be written (no leading zeros, no other spelling).
  if (`${head}.${sealed}` !== token) throw invalid('it is not a gateway card token');
  for (const key of keys.keysFor(accountId, keyVersion)) {
    try {
      const card = decryptCardToken(sealed, key.toString('base64'), Buffer.from(head, 'utf8'));
      return { card, expiresAt: new Date(Number(expiryText) * 1000), keyVersion };
    } catch {
      // Not this key's (GCM's tag did not authenticate): the next one, if a rotation gives one.
    }
  }
  throw invalid('it was altered or not made by this gateway');
}

/** FAILED_PRECONDITION once a token's expiry has come. */
export function assertCardTokenInDate(expiresAt: Date, now: Date): void {
  if (expiresAt.getTime() <= now.getTime())
    throw new GatewayError('FAILED_PRECONDITION', `the card token expired at ${expiresAt.toISOString()}: create a new one`, {
      field: FIELD,
      reason: 'CARD_TOKEN_EXPIRED',
    });
}

/** Opens a token that must also be in date at `now`: authenticateCardToken's refusals, and FAILED_PRECONDITION once it has expired. */
export function openCardToken(token: string, options: { accountId: string; keys: CardTokenKeys; now: Date }): OpenedCardToken {
  const opened = authenticateCardToken(token, options);
  assertCardTokenInDate(opened.expiresAt, options.now);
  return opened;
}

/** The keys of the gateway's card tokens, derived per account and version from the gateway's secrets key (SecretBox.deriveKey). */
export function derivedCardTokenKeys(derive: (info: string) => DerivedKeys, currentVersion: number): CardTokenKeys {
  if (!Number.isInteger(currentVersion) || currentVersion < 1) throw new RangeError('the card token key version must be a positive integer');
  return { currentVersion, keysFor: (accountId, version) => derive(`card-token key v${version} account ${accountId}`) };
}
