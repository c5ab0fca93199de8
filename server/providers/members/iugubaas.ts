import { SPEC_GROUPS } from '../adapter.js';
import { IUGU_API_TOKEN_BASIC, IuguAdapter, type IuguMember } from '../families/iugu/index.js';
import { member } from '../kit/registration.js';

/**
 * IUGUBAAS (spec doc 2, group 2): Iugu's own API (provider research: "IUGUBAAS = IUGU").
 * - Paths (doc 2 §7): POST /invoices, POST /charge, GET /invoices/{id}, POST /invoices/{id}/refund;
 *   card tokens by Iugu's POST /payment_token (research), the account id being the account's public key.
 * - Errors (doc 2 §8): 'Erro ao aprovar o reembolso.' on a refund failure, 'Erro salvando cartão' on a card token failure.
 * - Notifications (doc 2 §4): the `event` field, `data[id]` and `data[status]` of Iugu's form-encoded triggers.
 * - Statuses: the family's table over Iugu's invoice statuses, the spec's common pattern, unknown → REJECTED.
 * - Validity: the spec's defaults (PIX 1 day, boleto 3 days), sent as the invoice's due date.
 * - Host and auth from Iugu's public reference (api.iugu.com/v1, HTTP Basic with the API token as user).
 */
export const IUGUBAAS: IuguMember = {
  identity: { id: 'IUGUBAAS', specGroup: SPEC_GROUPS.DOC2_GROUP2, defaultBaseUrl: 'https://api.iugu.com/v1' },
  capabilities: { paymentMethods: ['PIX', 'CREDIT_CARD', 'BILLET'], refunds: true, cardTokens: true, webhooks: true },
  auth: IUGU_API_TOKEN_BASIC,
  credentials: { required: ['secretKey'] },
  money: 'cents',
  failures: { refoundTransaction: 'REFUND_APPROVAL_FAILED', createCardToken: 'SAVE_CARD_FAILED' },
};

export default member(IuguAdapter, IUGUBAAS);
