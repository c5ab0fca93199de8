import type { CardInput } from '../domain/types.js';
import { GatewayError, invalidArgument } from '../lib/errors.js';
import { authenticateCardToken, assertCardTokenInDate, cardTokenHash, checkedCard } from '../lib/gatewayCardToken.js';
import { newSavedCardId, openSavedCard, savedCardUuid, sealSavedCard, SAVED_CARD_PREFIX } from '../lib/savedCard.js';
import type { AdapterContext, ProviderAdapter } from '../providers/adapter.js';
import { cardTokenNotAccepted } from './cardTokens.js';
import type { GatewayDeps } from './context.js';

/**
 * Cards the gateway saves where the provider takes the gateway's card token (CreateCardId there): sealed without the
 * CVV under the account's own key, charged by their id as `card_id` as often as wanted, opened only inside the
 * provider call, revocable. Nothing of the card is ever in an answer, an error or a log line.
 */

type Deps = Pick<GatewayDeps, 'cardTokens' | 'savedCards' | 'db'>;

const FIELD = 'transaction.card_id';

/** Refused: the provider's API wants a CVV with a card's fields, and a saved card has none. */
function savedCardNotAccepted(provider: string): GatewayError {
  return new GatewayError(
    'FAILED_PRECONDITION',
    `${provider} cannot be sent a saved card (its API wants the CVV with the card, which the gateway does not keep): charge it with a new card token`,
    { field: FIELD, reason: 'SAVED_CARD_NOT_ACCEPTED' },
  );
}

const notThisAccounts = () =>
  new GatewayError('INVALID_ARGUMENT', 'card_id is not a saved card of this provider account', { field: FIELD, reason: 'SAVED_CARD_UNKNOWN' });

/**
 * Saves a card for the account from a gateway card token of that account (which it uses up, as a charge would) or
 * from the card's fields (checked as CreateCardToken checks them); the CVV is dropped. Answers the saved card's id.
 */
export async function saveCard(
  deps: Deps,
  call: { adapter: ProviderAdapter; ctx: AdapterContext; cardToken?: string; card?: CardInput },
  now = new Date(),
): Promise<string> {
  const { adapter, ctx, cardToken } = call;
  if (!adapter.takesCardData(ctx)) throw cardTokenNotAccepted(adapter.identity.id);
  if (!adapter.takesSavedCards(ctx)) throw savedCardNotAccepted(adapter.identity.id);
  let card: CardInput;
  if (cardToken) {
    const opened = authenticateCardToken(cardToken, { accountId: ctx.accountId, keys: deps.cardTokens.keys });
    assertCardTokenInDate(opened.expiresAt, now);
    // Saved once: the token is then used up, so neither a second save nor a charge reuses its CVV.
    const use = await deps.cardTokens.uses.use(deps.db.em(), {
      tokenHash: cardTokenHash(cardToken),
      providerAccountId: ctx.accountId,
      expiresAt: opened.expiresAt,
      now,
    });
    if (use !== 'first')
      throw new GatewayError('FAILED_PRECONDITION', 'the card token was already used: create a new card token to save the card', {
        field: 'card_token',
        reason: 'CARD_TOKEN_USED',
      });
    card = opened.card;
  } else {
    if (!call.card) throw invalidArgument('card_token', 'card_token or card is required', 'REQUIRED');
    card = checkedCard(call.card, now);
  }
  const id = newSavedCardId();
  await deps.savedCards.repository.insert(deps.db.em(), {
    id: id.slice(SAVED_CARD_PREFIX.length),
    providerAccountId: ctx.accountId,
    cardSealed: sealSavedCard(card, deps.savedCards.keysFor(ctx.accountId)[0]),
    now,
  });
  return id;
}

/** A charge's saved card, checked to be this account's: `open` refuses it once revoked, else answers the card (no CVV). */
export interface CheckedSavedCard {
  open(): Promise<CardInput>;
}

/**
 * Before the charge claims its idempotency key: refused when the provider cannot take a card's fields
 * (FAILED_PRECONDITION) or when the id is no saved card of this account (INVALID_ARGUMENT). The revocation is checked
 * in `open`, inside the provider call, so that a repeat of a charge made before it is still answered from its record.
 */
export async function checkSavedCard(deps: Deps, call: { adapter: ProviderAdapter; ctx: AdapterContext; cardId: string }): Promise<CheckedSavedCard> {
  const { adapter, ctx, cardId } = call;
  if (!adapter.takesSavedCards(ctx)) throw savedCardNotAccepted(adapter.identity.id);
  const uuid = savedCardUuid(cardId);
  const found = uuid ? await deps.savedCards.repository.find(deps.db.em(), uuid) : undefined;
  if (!found || found.providerAccountId !== ctx.accountId) throw notThisAccounts();
  return {
    async open() {
      const current = await deps.savedCards.repository.find(deps.db.em(), found.id);
      if (!current || current.revokedAt)
        throw new GatewayError('FAILED_PRECONDITION', 'the saved card was revoked: save the card again to charge it', {
          field: FIELD,
          reason: 'SAVED_CARD_REVOKED',
        });
      return openSavedCard(current.cardSealed, deps.savedCards.keysFor(ctx.accountId));
    },
  };
}

/** Revokes one of the account's saved cards: answers when it was revoked (the first time, on a repeat). */
export async function revokeSavedCard(deps: Deps, accountId: string, cardId: string, now = new Date()): Promise<Date> {
  const uuid = savedCardUuid(cardId);
  const revokedAt = uuid ? await deps.savedCards.repository.revoke(deps.db.em(), { id: uuid, providerAccountId: accountId, now }) : undefined;
  if (!revokedAt)
    throw new GatewayError('INVALID_ARGUMENT', 'card_id is not a saved card of this provider account', { field: 'card_id', reason: 'SAVED_CARD_UNKNOWN' });
  return revokedAt;
}
