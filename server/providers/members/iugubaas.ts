import { SPEC_GROUPS } from '../adapter.js';
import { IUGU_ACCOUNT_INFORMATION, IUGU_API_DOCUMENTATION, IUGU_API_TOKEN_BASIC, IuguAdapter, type IuguMember } from '../families/iugu/index.js';
import { member } from '../kit/registration.js';

/**
 * IUGUBAAS (spec doc 2, group 2): Iugu's own API (provider research: "IUGUBAAS = IUGU").
 * - Paths (doc 2 §7): POST /invoices, POST /charge, GET /invoices/{id}, POST /invoices/{id}/refund (read first:
 *   Iugu refunds a card invoice in part or whole, PIX only whole, no boleto);
 *   card tokens by Iugu's POST /payment_token (research), the account id being the account's public key.
 * - Errors (doc 2 §8): 'Erro ao aprovar o reembolso.' on a refund failure, 'Erro salvando cartão' on a card token failure.
 * - Notifications (doc 2 §4): the `event` field, `data[id]` and `data[status]` of Iugu's form-encoded triggers.
 * - Statuses: the family's table over Iugu's invoice statuses, the spec's common pattern, unknown → REJECTED.
 * - Validity: the spec's defaults (PIX 1 day, boleto 3 days), sent as the invoice's due date.
 * - Host and auth from Iugu's public reference (api.iugu.com/v1, HTTP Basic with the API token as user).
 * - Balance (issue 33 §4): Iugu's "Informações da Conta", GET /accounts/{id} with the account's own API token, the
 *   family's read as IUGU's: Iugu documents it for any account (master or sub-account), so an IUGUBAAS account has it.
 */
export const IUGUBAAS: IuguMember = {
  identity: { id: 'IUGUBAAS', specGroup: SPEC_GROUPS.DOC2_GROUP2, defaultBaseUrl: 'https://api.iugu.com/v1' },
  capabilities: { paymentMethods: ['PIX', 'CREDIT_CARD', 'BILLET'], refunds: true, cardTokens: true, webhooks: true, balances: true },
  auth: IUGU_API_TOKEN_BASIC,
  credentials: { required: ['secretKey'] },
  money: 'cents',
  sources:
    "paths (POST /invoices, POST /charge, GET /invoices/{id}, POST /invoices/{id}/refund), invoice fields (email, payer, payable_with, due_date, return_url, items), the charge's `token, months, invoice_id`, `partial_value_refund_cents`, 'Erro ao aprovar o reembolso.', 'Erro salvando cartão', trigger fields `event`, `data[id]`, `data[status]`: spec (doc 2 §4/§7/§8); host `api.iugu.com/v1` and Basic with the API token as user (Autenticação; iugu-php APIRequest); the invoice answer (`id`, `status`, `total_cents`, `paid_cents`, `refunded_cents`, `payment_method`, `pix{qrcode, qrcode_text}`, `bank_slip{digitable_line, bank_slip_pdf_url}`) and `notification_url` (Criar Fatura; Cobrar com PIX por API, which makes the payer's name and cpf_cnpj required for a boleto); invoice statuses (Faturas); `Idempotency-Key` on invoices and charges (Chave de Idempotência); POST /payment_token with the account id and no API token, answered `{id, extra_info}` (Criar Token and its response properties); the charge answer `{success, message, LR, invoice_id}` (Cobrança Direta — propriedades do response), a declined charge's `LR` (the acquirer's ABECS code, Tabela de LRs) as its decline reason, else its `message`, and the `message` as the decline's text; the account's balance, GET /accounts/{the public key} with the account's API token, `balance_available_for_withdraw` else `balance` (Informações da Conta); refunds: a card invoice in part or whole, PIX only whole, no boleto, the whole with an empty body (Reembolsar Faturas por API; Reembolso [PIX]); `errors` as a text or field → messages (iugu-php APIRequest); form-encoded triggers and their fields (Gatilhos; Gatilhos de Fatura), their `authorization` read as Basic Authentication (Criar Gatilho): verified by the stand-in written from them (tests/standins/iugu.ts, \"IUGUBAAS = IUGU\"); due dates by the Brasília day, items that must total the amount, which triggers are read: gateway",
  evidence: { level: 'documented', addresses: [...IUGU_API_DOCUMENTATION, IUGU_ACCOUNT_INFORMATION] },
  failures: { refoundTransaction: 'REFUND_APPROVAL_FAILED', createCardToken: 'SAVE_CARD_FAILED' },
};

export default member(IuguAdapter, IUGUBAAS);
