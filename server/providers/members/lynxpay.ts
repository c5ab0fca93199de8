import { fourDigitYear, type CardInput } from '../../lib/card.js';
import { catalogueError, type CatalogueKey } from '../../lib/providerMessages.js';
import { SPEC_GROUPS, type AdapterContext } from '../adapter.js';
import { TransactionsApiAdapter, toApiCardToken, type TransactionsApiMember } from '../families/transactionsApi/index.js';
import { member } from '../kit/registration.js';

/**
 * LYNXPAY (spec doc 2, group 2), a member of the transactions API family: POST
 * /v1/card-token with the public key in the query, POST /transactions, GET
 * /transactions/{id}, POST /transactions/{id}/refund (doc 2 §7); a card charge
 * needs a card token ('Card token is required for credit card payments.', §5);
 * the card checks of §5 before a card is sent; the provider's own message on
 * failures (§8, the family's rule); one installment by default (§9, the
 * family's rule). No public material (provider research): the family's Basic
 * secret-key auth and bodies, a placeholder host accounts override.
 */
export const LYNXPAY: TransactionsApiMember = {
  identity: { id: 'LYNXPAY', specGroup: SPEC_GROUPS.DOC2_GROUP2, defaultBaseUrl: 'https://api.lynxpay.com.br' },
  capabilities: { paymentMethods: ['PIX', 'CREDIT_CARD', 'BILLET'], refunds: true, cardTokens: true, webhooks: true },
  auth: { type: 'basic', username: 'secretKey', password: () => 'x' },
  credentials: { required: ['publicKey', 'secretKey'] },
  money: 'cents',
  evidence: { level: 'specification-only' },
  sources:
    "paths, card checks, 'card.cvv …' and 'Card token is required for credit card payments.': spec (doc 2 §5/§7); the other card-check texts written after the cvv one; bodies and Basic auth: the family's dialect (no public material); host: placeholder",
  paths: { cardToken: '/v1/card-token' },
  failures: { missingCard: 'CARD_TOKEN_REQUIRED' },
};

/** The card checks of doc 2 §5, in order; the first that fails names its field. */
const CARD_CHECKS: ReadonlyArray<[CatalogueKey, (card: CardInput) => boolean]> = [
  ['LYNXPAY_CARD_NUMBER_REQUIRED', (card) => Boolean(card.cardNumber?.trim())],
  ['LYNXPAY_INVALID_HOLDER_NAME', (card) => (card.holderName ?? '').trim().split(/\s+/).length >= 2],
  ['LYNXPAY_INVALID_EXPIRATION_MONTH', (card) => (card.expMonth ?? '').trim().length > 0 && (card.expMonth ?? '').trim().length <= 2],
  ['LYNXPAY_INVALID_EXPIRATION_YEAR', (card) => fourDigitYearOrEmpty(card.expYear).length === 4],
  ['LYNXPAY_INVALID_CVV', (card) => /^\d{3,4}$/.test((card.cvv ?? '').trim())],
];

function fourDigitYearOrEmpty(expYear: string | undefined): string {
  try {
    return fourDigitYear(expYear ?? '');
  } catch {
    return '';
  }
}

/** Two hooks: the card token's checks and body ({card: {…}}, the field names of its messages), and its public-key query. */
export class LynxpayAdapter extends TransactionsApiAdapter {
  protected override cardTokenBody(card: CardInput): object {
    if (!card) throw catalogueError('LYNXPAY_CARD_REQUIRED', { field: 'card' });
    const failed = CARD_CHECKS.find(([, passes]) => !passes(card));
    if (failed) throw catalogueError(failed[0], { field: 'card' });
    return { card: toApiCardToken(card) };
  }

  protected override cardTokenQuery(ctx: AdapterContext): Record<string, string> {
    return { publicKey: ctx.publicKey };
  }
}

export default member(LynxpayAdapter, LYNXPAY);
