import type { CardInput } from '../domain/types.js';
import { GatewayError } from '../lib/errors.js';
import { assertCardTokenInDate, authenticateCardToken, cardTokenHash, sealCardToken } from '../lib/gatewayCardToken.js';
import type { CardTokenUse } from '../db/cardTokenUsesRepository.js';
import type { AdapterContext, ProviderAdapter } from '../providers/adapter.js';
import type { GatewayDeps } from './context.js';

/**
 * The gateway's own card token at the use-case level: made where the provider takes cards but tokenises nothing of
 * its own; authenticated before a charge claims its idempotency key; checked for its date, its use recorded and the
 * card opened only inside the provider call. The token is never stored (its use is, by hash); the card is never
 * stored, logged or answered.
 */

/** Whether an account's provider gets the gateway's card token: it takes cards and has no tokenization of its own. */
export const usesGatewayCardTokens = (adapter: ProviderAdapter): boolean =>
  adapter.capabilities.paymentMethods.includes('CREDIT_CARD') && !adapter.capabilities.cardTokens;

/**
 * Whether the gateway's card token can charge a card at this provider, in this account's dialect (the catalogue asks
 * for the default one): the provider gets gateway tokens and its adapter sends a card's own fields.
 */
export const chargesGatewayCardTokens = (adapter: ProviderAdapter, ctx: Pick<AdapterContext, 'apiVersion'> = {}): boolean =>
  usesGatewayCardTokens(adapter) && adapter.takesCardData(ctx as AdapterContext);

/** Refused: the provider takes cards, but only by a reference of its own, which the gateway's token cannot be. */
export function cardTokenNotAccepted(provider: string): GatewayError {
  return new GatewayError(
    'FAILED_PRECONDITION',
    `${provider} cannot be sent a card from the gateway's card token (its API takes a card only by a reference of its own): charge it with such a card_id`,
    { field: 'transaction.card_id', reason: 'CARD_TOKEN_NOT_ACCEPTED' },
  );
}

/** A new token of the card for one account, to open for CARD_TOKEN_TTL_SECONDS. */
export function issueCardToken(deps: Pick<GatewayDeps, 'cardTokens'>, accountId: string, card: CardInput, now = new Date()): string {
  return sealCardToken(card, { accountId, keys: deps.cardTokens.keys, now, ttlSeconds: deps.cardTokens.ttlSeconds }).token;
}

/** A charge's gateway card token, authenticated: `use` checks its date, records its use and opens the card. */
export interface CheckedCardToken {
  /**
   * Inside the provider call, just before the request is built: FAILED_PRECONDITION when the token has expired or
   * another charge used it; else its use is recorded (with the charge's idempotency key) and the card answered.
   */
  use(idempotencyKey: string | undefined): Promise<CardInput>;
}

/**
 * Checks a charge's gateway card token before the charge claims its idempotency key: refused when the provider cannot
 * take a card from it (FAILED_PRECONDITION) or when it is not a token of this account (malformed, foreign, altered:
 * INVALID_ARGUMENT). Its date and its use are checked by `use`, in the provider call: a repeat of a charge already
 * made is answered from the record without reaching it (even once the token has expired), and a request refused for
 * its idempotency key uses nothing up. A retry of the charge that used it (the same key on the same account) is not
 * another use. The card is dropped here and opened again only in `use`.
 */
export function checkCardToken(
  deps: Pick<GatewayDeps, 'cardTokens' | 'db' | 'logger'>,
  call: { adapter: ProviderAdapter; ctx: AdapterContext; token: string },
): CheckedCardToken {
  const { adapter, ctx, token } = call;
  const provider = adapter.identity.id;
  if (!usesGatewayCardTokens(adapter))
    throw new GatewayError('FAILED_PRECONDITION', `${provider} tokenises cards itself: charge it with a card token made by ${provider} (CreateCardToken)`, {
      field: 'transaction.card_id',
      reason: 'CARD_TOKEN_NOT_ACCEPTED',
    });
  if (!adapter.takesCardData(ctx)) throw cardTokenNotAccepted(provider);
  const opening = { accountId: ctx.accountId, keys: deps.cardTokens.keys };
  const { expiresAt } = authenticateCardToken(token, opening);
  return {
    async use(idempotencyKey) {
      const now = new Date();
      assertCardTokenInDate(expiresAt, now);
      let use: CardTokenUse;
      try {
        use = await deps.cardTokens.uses.use(deps.db.em(), {
          tokenHash: cardTokenHash(token),
          providerAccountId: ctx.accountId,
          idempotencyKey,
          expiresAt,
          now,
        });
      } catch (error) {
        // Nothing was sent: the charge failed (its key is free for a retry), whatever the database said.
        deps.logger.warn({ err: error, providerAccountId: ctx.accountId }, "a card token's use could not be recorded; the charge was not sent");
        throw new GatewayError('UNAVAILABLE', "the card token's use could not be recorded; nothing was sent: retry", {
          reason: 'CARD_TOKEN_USE_UNRECORDED',
          outcome: 'failed',
        });
      }
      if (use === 'reused')
        throw new GatewayError(
          'FAILED_PRECONDITION',
          'the card token was already used by another charge (a retry of that charge must carry its idempotency_key): create a new card token',
          { field: 'transaction.card_id', reason: 'CARD_TOKEN_USED' },
        );
      return authenticateCardToken(token, opening).card;
    },
  };
}
