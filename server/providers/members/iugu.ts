import { SPEC_GROUPS } from '../adapter.js';
import { IUGU_API_TOKEN_BASIC, IuguAdapter, type IuguMember } from '../families/iugu/index.js';
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
  },
  auth: IUGU_API_TOKEN_BASIC,
  credentials: { required: ['secretKey'] },
  // Document 1 §8's Portuguese variant for the provider whose API speaks Portuguese (docs/decisions.md).
  notFound: { getReceiver: 'RECEBEDOR_NAO_ENCONTRADO' },
  money: 'cents',
  sources:
    "host `api.iugu.com/v1`, Basic with the API token, cents, POST /invoices with payable_with, GET /invoices/{id}, POST /charge, POST /payment_token, POST /invoices/{id}/refund `{partial_value_refund_cents}`, invoice statuses, form-encoded triggers, POST /accounts/{id}/request_withdraw `{amount}` in reais and the `withdraw_request.*` triggers with their statuses (dev.iugu.com/reference/pedido-de-saque, dev.iugu.com/docs/saque), sub-accounts as receivers: POST /marketplace/create_account → `{account_id, live_api_token, user_token}`, POST /accounts/{id}/request_verification `{data, files}` with the bank's Iugu name, GET /accounts/{id} `can_receive?`/`last_verification_request_status`/`balance`, PUT /payments/pix `{enable}`, POST /accounts/configuration `{credit_card}` (dev.iugu.com: Criar Subconta, Enviar Verificação de Subconta, Informações da Conta, Ativar/desativar Pix, Configurar Conta, Lista de bancos iugu): research (Iugu's official docs dev.iugu.com and the iugu-php SDK); statuses: document 1 §4 through the family's table; receiver statuses: document 1 §4's first rule; the documents: document 1 §5, 'Error on upload pdf' and 'Receiver not found.': document 1 §8; the rest: the Iugu family's decisions (IUGUBAAS)",
};

export default member(IuguAdapter, IUGU);
