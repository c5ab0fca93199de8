import type { CardInput } from '../domain/types.js';
import { GatewayError } from '../lib/errors.js';
import { cardTokenHash, openCardToken, sealCardToken } from '../lib/gatewayCardToken.js';
import type { AdapterContext, ProviderAdapter } from '../providers/adapter.js';
import type { GatewayDeps } from './context.js';

/**
 * The gateway's own card token at the use-case level: made where the provider takes cards but tokenises nothing of
 * its own, checked and claimed before a charge, opened only inside the provider call. The token is never stored (its
 * use is, by hash); the card is never stored, logged or answered.
 */

/** Whether an account's provider gets the gateway's card token: it takes cards and has no tokenization of its own. */
export const usesGatewayCardTokens = (adapter: ProviderAdapter): boolean =>
  adapter.capabilities.paymentMethods.includes('CREDIT_CARD') && !adapter.capabilities.cardTokens;

/** A new token of the card for one account, to open for CARD_TOKEN_TTL_SECONDS. */
export function issueCardToken(deps: Pick<GatewayDeps, 'cardTokens'>, accountId: string, card: CardInput, now = new Date()): string {
  return sealCardToken(card, { accountId, keys: deps.cardTokens.keys, now, ttlSeconds: deps.cardTokens.ttlSeconds }).token;
}

/**
 * Checks a charge's gateway card token and records its use, before anything is sent: refused when the provider cannot
 * take a card from it, when it is not a token of this account (malformed, foreign, altered: INVALID_ARGUMENT), when it
 * has expired, or when another charge used it (FAILED_PRECONDITION). A retry of the charge that used it (the same
 * idempotency key on the same account) is not another use. Answers how to open the card, for the provider call only.
 */
export async function claimCardToken(
  deps: Pick<GatewayDeps, 'cardTokens' | 'db'>,
  call: { adapter: ProviderAdapter; ctx: AdapterContext; token: string; idempotencyKey?: string; now?: Date },
): Promise<() => CardInput> {
  const { adapter, ctx, token, idempotencyKey } = call;
  const provider = adapter.identity.id;
  if (!usesGatewayCardTokens(adapter))
    throw new GatewayError('FAILED_PRECONDITION', `${provider} tokenises cards itself: charge it with a card token made by ${provider} (CreateCardToken)`, {
      field: 'transaction.card_id',
      reason: 'CARD_TOKEN_NOT_ACCEPTED',
    });
  if (!adapter.takesCardData(ctx))
    throw new GatewayError(
      'FAILED_PRECONDITION',
      `${provider} cannot be sent a card from the gateway's card token (its API takes a card only by a reference of its own): charge it with such a card_id`,
      { field: 'transaction.card_id', reason: 'CARD_TOKEN_NOT_ACCEPTED' },
    );
  const now = call.now ?? new Date();
  const opening = { accountId: ctx.accountId, keys: deps.cardTokens.keys, now };
  // Authenticated and in date; the card is dropped until the call.
  const { expiresAt } = openCardToken(token, opening);
  const use = await deps.cardTokens.uses.use(deps.db.em(), {
    tokenHash: cardTokenHash(token),
    providerAccountId: ctx.accountId,
    idempotencyKey,
    expiresAt,
    now,
  });
  if (use === 'reused')
    throw new GatewayError(
      'FAILED_PRECONDITION',
      'the card token was already used by another charge (a retry of that charge must carry its idempotency_key): create a new card token',
      { field: 'transaction.card_id', reason: 'CARD_TOKEN_USED' },
    );
  // Opened as of the check, so a token that expires while the charge is under way still reaches the provider.
  return () => openCardToken(token, opening).card;
}
