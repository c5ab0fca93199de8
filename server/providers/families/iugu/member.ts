import type { AuthStyle } from '../../../lib/http/index.js';
import type { PathTemplate, ProviderDeclaration } from '../../kit/declaration.js';

/**
 * What a member of the Iugu family declares: the kit's declaration and the
 * paths and events of this dialect (Iugu's API v1: invoices, direct charges,
 * payment tokens, form-encoded triggers). Members: IUGUBAAS (doc 2, group 2);
 * IUGU (doc 2, group 1), which adds payouts and receivers. Extension points:
 *
 * | variation                                                 | declared as                                                    |
 * |-----------------------------------------------------------|----------------------------------------------------------------|
 * | host (Iugu's `api.iugu.com/v1`, or a white label's)       | `identity.defaultBaseUrl`                                      |
 * | IUGUBAAS's 'Erro ao aprovar o reembolso.' (doc 2 §8)      | `failures.refoundTransaction: 'REFUND_APPROVAL_FAILED'`        |
 * | IUGUBAAS's 'Erro salvando cartão' on card tokens (§8)     | `failures.createCardToken: 'SAVE_CARD_FAILED'`                 |
 * | other paths than IUGU_PATHS                               | `paths: { invoices, invoice, refund, charge, paymentToken }`    |
 * | which triggers are read (default IUGU_INVOICE_EVENTS)     | `events: [...]`                                                |
 * | PIX and boleto validity (sent as the invoice's due date)  | `expiry: { pixSeconds, boletoSeconds }`                        |
 * | status exceptions                                         | `statuses.transaction: { overrides, unknown }`                 |
 * | methods, card tokens, refunds                             | `capabilities`                                                 |
 *
 * | payouts to the account's bank domicile (IUGU)             | `capabilities.withdrawMethods: ['BANK_ACCOUNT']`               |
 *
 * Payouts are Iugu's "pedido de saque" (dev.iugu.com/reference/pedido-de-saque):
 * POST /accounts/{account id}/request_withdraw `{amount}` in reais, the money
 * going to the bank domicile registered on the account (so a payout names no
 * destination), followed by the `withdraw_request.*` triggers
 * (dev.iugu.com/docs/saque). Iugu documents no read of a withdraw request.
 */
export interface IuguMember extends ProviderDeclaration {
  /** Only what differs from IUGU_PATHS. */
  paths?: Partial<IuguPaths>;
  /** The `event` values whose `data[id]`/`data[status]` are read; every other trigger is ignored. */
  events?: readonly string[];
}

/** `{id}` is the invoice id. */
export interface IuguPaths {
  /** POST: the invoice (every charge starts as one). */
  invoices: PathTemplate;
  /** GET: one invoice. */
  invoice: PathTemplate;
  /** POST `{partial_value_refund_cents}`. */
  refund: PathTemplate;
  /** POST `{token, months, invoice_id}`: an invoice paid by card. */
  charge: PathTemplate;
  /** POST `{account_id, method, data}`: a card's token, without the API token. */
  paymentToken: PathTemplate;
  /** POST `{amount}` (reais): a withdraw request; `{id}` is the Iugu account id. */
  withdraw: PathTemplate;
}

/** Spec doc 2 §7 (IUGUBAAS): POST /invoices, POST /charge, GET /invoices/{id}, POST /invoices/{id}/refund; the token path is Iugu's (research). */
export const IUGU_PATHS: IuguPaths = {
  invoices: '/invoices',
  invoice: '/invoices/{id}',
  refund: '/invoices/{id}/refund',
  charge: '/charge',
  paymentToken: '/payment_token',
  withdraw: '/accounts/{id}/request_withdraw',
};

/** The triggers about a withdraw request (dev.iugu.com/docs/saque): `data[withdraw_request_id]` and `data[status]`. */
export const IUGU_WITHDRAW_EVENTS: readonly string[] = ['withdraw_request.created', 'withdraw_request.status_changed'];

/**
 * The triggers about an invoice that carry its id and current status
 * (dev.iugu.com/docs/gatilhos): created, status changed, refunded, a failed
 * card attempt. Subscriptions, referrals and withdrawal requests are not charges.
 */
export const IUGU_INVOICE_EVENTS: readonly string[] = ['invoice.created', 'invoice.status_changed', 'invoice.refund', 'invoice.payment_failed'];

/** Authorization: Basic base64(api token + ':'), the API token as user and no password (Iugu's convention). */
export const IUGU_API_TOKEN_BASIC: AuthStyle = { type: 'basic', username: 'secretKey', password: 'empty' };

/**
 * Where Iugu's API v1 is documented: the pages and official SDK files its
 * stand-in (tests/standins/iugu.ts) was written from, and passes. The API of
 * every member: authentication, invoices, payment tokens, direct charges,
 * refunds, idempotency keys and triggers.
 */
export const IUGU_API_DOCUMENTATION = [
  'https://dev.iugu.com/reference/autentica%C3%A7%C3%A3o',
  'https://dev.iugu.com/reference/criar-fatura',
  'https://dev.iugu.com/docs/cdu-faturas',
  'https://dev.iugu.com/docs/faturas',
  'https://dev.iugu.com/docs/chave-de-idempot%C3%AAncia-1',
  'https://dev.iugu.com/reference/criar-token',
  'https://dev.iugu.com/reference/criar-token-propriedades-do-response',
  'https://dev.iugu.com/reference/cobran%C3%A7a-direta-propriedades-do-response',
  'https://dev.iugu.com/reference/tabela-de-lrs',
  'https://dev.iugu.com/docs/guide-cartoes-de-teste',
  'https://dev.iugu.com/docs/realizar-o-reembolso-de-faturas-estorno-por-api',
  'https://dev.iugu.com/reference/reembolso',
  'https://dev.iugu.com/docs/gatilhos',
  'https://dev.iugu.com/docs/gatilhos-fatura',
  'https://dev.iugu.com/reference/criar-gatilho',
  'https://github.com/iugu/iugu-php/blob/4ed4ab8/lib/Iugu/APIRequest.php',
  'https://github.com/iugu/iugu-node/blob/b99a96e/lib/resources/Invoices.js',
] as const;

/** Informações da Conta: GET /accounts/{id} with the account's own API token, its balance among the fields (any Iugu account's). */
export const IUGU_ACCOUNT_INFORMATION = 'https://dev.iugu.com/reference/informacoes-da-conta';

/** The marketplace's part (IUGU's payouts and receivers): withdraw requests and their triggers, sub-accounts and their tokens. */
export const IUGU_MARKETPLACE_DOCUMENTATION = [
  'https://dev.iugu.com/reference/pedido-de-saque',
  'https://dev.iugu.com/docs/saque',
  'https://dev.iugu.com/docs/tokens-de-autenticacao',
  'https://dev.iugu.com/reference/criar-subconta-propriedades-do-response',
  'https://dev.iugu.com/reference/criar-e-verificar-subconta',
  'https://github.com/iugu/iugu-php/blob/4ed4ab8/lib/exemplos.php',
  'https://github.com/iugu/iugu-node/blob/b99a96e/lib/resources/Accounts.js',
] as const;
