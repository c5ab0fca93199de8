import type { WithdrawInput } from '../../domain/types.js';
import { SECONDS_PER_DAY } from '../../lib/expiry.js';
import { pixKeyTypeName } from '../../lib/pixKey.js';
import { SPEC_GROUPS, type AdapterContext } from '../adapter.js';
import { DOC3_COMMON_OVERRIDES, TransactionsApiAdapter, type TransactionsApiMember } from '../families/transactionsApi/index.js';
import { credentialPart, type CredentialLayout } from '../kit/credentials.js';
import { member } from '../kit/registration.js';

/**
 * The account's keys: the public key is the Basic user; the secret key packs
 * the Basic password and, for payouts, the withdraw key ('secret|withdrawKey').
 * Both keys are required ('PodPay requer tanto publicKey quanto secretKey para
 * autenticação Basic.', doc 3 §5).
 */
const CREDENTIALS = {
  secretKey: ['secret', 'withdrawKey?'],
  required: ['publicKey', 'secretKey'],
  missing: 'PODPAY2_BASIC_AUTH_KEYS_REQUIRED',
} as const satisfies CredentialLayout;

/**
 * PODPAY2 (spec doc 3, group 4), a member of the transactions API family on
 * the "Pagar.me-v4 clone" platform (provider research F1, api.podpay.co): the
 * family's paths, POST /transactions, GET /transactions/{id}, POST
 * /transactions/{id}/refund, POST /transfers with a withdraw-key header (§7),
 * GET /transfers/{id} (the platform's payout read);
 * Basic publicKey:secret (§5, research); card charges need card data (§5);
 * PIX 1 day, boleto 3 days (§9); its transaction and transfer tables (§4),
 * unknown PENDING; the fourth group's 'Erro no saque: …' and 'Erro no
 * estorno: …' (§8). The transfer body adds the research's `method: 'fiat'`
 * and names a random key `evp`.
 */
export const PODPAY2: TransactionsApiMember = {
  identity: { id: 'PODPAY2', specGroup: SPEC_GROUPS.DOC3_GROUP4, defaultBaseUrl: 'https://api.podpay.co/v1' },
  /**
   * Payouts are read by GET /transfers/{id} (the platform's, which its public clients use; §7 lists
   * only the POST): its postbacks are unsigned, so a payout's notification is confirmed by that read.
   */
  capabilities: { paymentMethods: ['PIX', 'CREDIT_CARD', 'BILLET'], withdrawMethods: ['PIX'], withdrawalLookup: true, refunds: true, webhooks: true },
  auth: { type: 'basic', username: 'publicKey', password: credentialPart(CREDENTIALS, 'secret') },
  credentials: CREDENTIALS,
  money: 'cents',
  expiry: { pixSeconds: SECONDS_PER_DAY, boletoSeconds: 3 * SECONDS_PER_DAY },
  statuses: {
    transaction: {
      overrides: { ...DOC3_COMMON_OVERRIDES, in_protest: 'PENDING', cancelled: 'REJECTED', canceled: 'REJECTED' },
      unknown: 'PENDING',
    },
    withdrawal: {
      table: { pending: 'PENDING', processing: 'PENDING', completed: 'APPROVED', cancelled: 'REJECTED', canceled: 'REJECTED', refused: 'REJECTED' },
      unknown: 'PENDING',
    },
  },
  failures: { missingCard: 'PODPAY2_CARD_DATA_REQUIRED' },
  withdrawKeyHeader: 'x-withdraw-key',
  failurePrefixes: { withdraw: 'WITHDRAW_FOURTH_GROUP', refoundTransaction: 'REFUND_FOURTH_GROUP' },
  sources:
    "paths, withdraw-key header, both keys for Basic, card data, expiries, statuses, texts: spec (doc 3 §4/§5/§7/§8/§9); host `api.podpay.co/v1`, Basic `api_key:api_secret`, cents, `x-withdraw-key`, transfer `{method: fiat, amount, pixKey, pixKeyType (evp)}`, postbacks `{type: transaction|withdraw, data}`, GET /transfers/{id}: research (F1, PodPay's public integrations); the withdraw key packed after the secret: the gateway's decision",
};

/** One hook: the transfer body's `method` and key type. Every operation is the family's (the withdraw key its `withdrawKeyHeader`). */
export class PodPay2Adapter extends TransactionsApiAdapter {
  protected override withdrawalBody(input: WithdrawInput, ctx: AdapterContext): object {
    const body = super.withdrawalBody(input, ctx);
    return { ...body, method: 'fiat', ...(input.pixType ? { pixKeyType: pixKeyTypeName(input.pixType, { randomAs: 'evp' }) } : {}) };
  }
}

export default member(PodPay2Adapter, PODPAY2);
