import { SPEC_GROUPS } from '../adapter.js';
import {
  IUGU_ACCOUNT_INFORMATION,
  IUGU_API_DOCUMENTATION,
  IUGU_API_TOKEN_BASIC,
  IUGU_MARKETPLACE_DOCUMENTATION,
  IuguAdapter,
  type IuguMember,
} from '../families/iugu/index.js';
import { member } from '../kit/registration.js';

/**
 * IUGU (spec doc 2, group 1): Iugu's own API, the family IUGUBAAS already
 * speaks (research: "IUGUBAAS = IUGU"). Document 2 shows no group-1 paths, so
 * Iugu's documented ones: invoices payable with pix, bank_slip or credit_card
 * (POST /invoices, GET /invoices/{id}), card charges by POST /charge with a
 * POST /payment_token token, refunds by POST /invoices/{id}/refund, and the
 * form-encoded triggers. IUGUBAAS's fixed texts (doc 2 §8, group 2) are not
 * IUGU's: its failures keep the common prefixes. Document 1 §4's common table
 * (the family's), §9's validity defaults. Payouts are Iugu's withdraw requests
 * to the account's registered bank domicile (POST /accounts/{account id}/
 * request_withdraw, reais), the account id being the public key (as for card
 * tokens), reported by the `withdraw_request.*` triggers. Receivers are Iugu
 * sub-accounts (families/iugu/subAccounts.ts): created by the marketplace,
 * verified with document 1 §5's documents, read by document 1 §4's first
 * receiver rule, PIX and installments switched on once ACTIVE.
 */
export const IUGU: IuguMember = {
  identity: { id: 'IUGU', specGroup: SPEC_GROUPS.DOC2_GROUP1, defaultBaseUrl: 'https://api.iugu.com/v1' },
  capabilities: {
    paymentMethods: ['PIX', 'CREDIT_CARD', 'BILLET'],
    withdrawMethods: ['BANK_ACCOUNT'],
    refunds: true,
    cardTokens: true,
    receivers: true,
    webhooks: true,
    balances: true,
  },
  auth: IUGU_API_TOKEN_BASIC,
  credentials: { required: ['secretKey'] },
  // Document 1 §8's Portuguese variant for the provider whose API speaks Portuguese (docs/decisions.md).
  notFound: { getReceiver: 'RECEBEDOR_NAO_ENCONTRADO' },
  money: 'cents',
  sources:
    "host `api.iugu.com/v1`, Basic with the API token, cents, invoices, direct charges, payment tokens, refunds by Iugu's rules, `Idempotency-Key`, statuses and form-encoded triggers with their Basic `authorization`: Iugu's documentation as for IUGUBAAS (dev.iugu.com, iugu-php, iugu-node), verified by the stand-in written from it (tests/standins/iugu.ts); payouts: POST /accounts/{id}/request_withdraw `{amount}` in reais to the account's registered bank domicile (Pedido de Saque; iugu-php's example '10.00'), the `withdraw_request.*` triggers and their statuses, a rejected request's `data[feedback]` (\"Motivo da rejeição do saque\", e.g. CH11) kept as the payout's refusal reason (Saque); receivers as sub-accounts: POST /marketplace/create_account → `{account_id, live_api_token, user_token}` (Criar Subconta — propriedades do response), POST /accounts/{id}/request_verification `{data, files}` with the sub-account's user_token (Tokens de Autenticação; Criar e Verificar Subconta; iugu-php's example of `data`), GET /accounts/{id} `can_receive?`/`last_verification_request_status`/`balance` (also the account's own balance read, `balance_available_for_withdraw` else `balance`, for GetAccountBalance), PUT /payments/pix `{enable}`, POST /accounts/configuration `{credit_card}`: verified by the same stand-in; the bank names (Lista de bancos iugu): research; statuses: document 1 §4 through the family's table; receiver statuses: document 1 §4's first rule; the documents: document 1 §5, 'Error on upload pdf' and 'Receiver not found.': document 1 §8; the rest: the Iugu family's decisions (IUGUBAAS)",
  evidence: { level: 'documented', addresses: [...IUGU_API_DOCUMENTATION, ...IUGU_MARKETPLACE_DOCUMENTATION, IUGU_ACCOUNT_INFORMATION] },
};

export default member(IuguAdapter, IUGU);
