import { randomUUID } from 'node:crypto';
import type { CardInput } from './card.js';
import { SecretBox, type DerivedKeys } from './secretBox.js';

/**
 * A card saved by the gateway for one provider account (issue 28: "stored sealed, revocable"): its id is what a caller
 * charges as `card_id`, many times; the card is kept sealed with AES-256-GCM under a key of that account's own (derived
 * from the gateway's secrets key), and without its CVV, which the gateway never keeps beyond a card token's life.
 */
export const SAVED_CARD_PREFIX = 'gsc_';

/** Whether `text` is meant to be a saved card's id (by its prefix); such a text is never sent to a provider as it is. */
export const isSavedCardId = (text: string | undefined): text is string => Boolean(text?.startsWith(SAVED_CARD_PREFIX));

/** The id of a new saved card: the prefix and a random UUID (nothing of the card). */
export const newSavedCardId = (): string => `${SAVED_CARD_PREFIX}${randomUUID()}`;

/** The row's key part of an id, or undefined when the id cannot be one the gateway made. */
export function savedCardUuid(id: string): string | undefined {
  const uuid = id.slice(SAVED_CARD_PREFIX.length);
  return isSavedCardId(id) && /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(uuid) ? uuid : undefined;
}

/** What is sealed: the card's fields but the CVV. */
type KeptCard = Omit<CardInput, 'cvv'>;

/** Seals a checked card without its CVV. */
export function sealSavedCard(card: CardInput, key: Buffer): string {
  const kept: KeptCard = {
    cardNumber: card.cardNumber,
    holderName: card.holderName,
    holderDocument: card.holderDocument,
    expMonth: card.expMonth,
    expYear: card.expYear,
  };
  return new SecretBox(key).seal(JSON.stringify(kept));
}

/**
 * Opens a saved card: the card with an empty CVV (none is kept). Throws when the seal opens under none of `keys` (the
 * account's key from the current secrets key and, during a rotation, from the other).
 */
export function openSavedCard(sealed: string, keys: DerivedKeys): CardInput {
  const kept = JSON.parse(new SecretBox(keys[0], keys[1]).open(sealed)) as KeptCard;
  return { ...kept, cvv: '' };
}

/** The name of an account's saved-card key, for SecretBox.deriveKey: one key per account, so no account opens another's cards. */
export const savedCardKeyInfo = (accountId: string): string => `saved-card key account ${accountId}`;
