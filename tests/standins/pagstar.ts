import { startBacenPixStandIn, type BacenPixStandIn, type BacenPixStandInOptions } from './bacenpix.js';

/**
 * Pagstar's current public API (PAGSTAR's api_version 'public'), as
 * docs.pagstar.com documents it: the Banco Central's API Pix for cash-in and
 * Onz's Accounts API for cash-out, so the BACEN API Pix stand-in
 * (tests/standins/bacenpix.ts) with Pagstar's differences as options.
 *
 * What the pages show and the stand-in enforces:
 * - Authentication (https://docs.pagstar.com/reference): every call over mTLS
 *   with the certificate and key Pagstar issues (a client without one is
 *   refused in the handshake); POST /oauth/token with a JSON body
 *   {grant_type: client_credentials, client_id, client_secret} (a form body is
 *   refused, a wrong client 401), answered {access_token, expires_in 300,
 *   refresh_expires_in 0, token_type Bearer}; every other call carries
 *   `Authorization: Bearer <access_token>` (401 otherwise).
 * - The QR Codes API's pages reproduce the Banco Central's API Pix
 *   (https://docs.pagstar.com/reference/criar-cobran%C3%A7a-imediata-copy-1:
 *   the txid rules, the cob.write/cob.read/pix.write… scopes), so its cob is
 *   the API Pix's (github.com/bacen/pix-api openapi.yaml 2.9.0): POST /cob
 *   (and PUT /cob/{txid}) with CobSolicitada — calendario.expiracao a positive
 *   integer, valor.original in reais as `\d{1,10}\.\d{2}` and not zero, chave
 *   the client's own, devedor {cpf 11 digits | cnpj 14, nome}
 *   (https://docs.pagstar.com/docs/assuntos-relacionados-ao-pix-1: CPF
 *   `^[0-9]{11}$`, CNPJ `^[0-9]{14}$` in JSON), solicitacaoPagador ≤ 140 —
 *   answered 201 CobGerada with pixCopiaECola; GET /cob/{txid} CobCompleta,
 *   CONCLUIDA with its `pix` once paid; RFC 7807 errors (CobOperacaoInvalida).
 * - Cash-out (https://docs.pagstar.com/reference/criar-transfer%C3%AAncia-com-dados-banc%C3%A1rios-copy):
 *   POST /api/v2/pix/payments/dict on the Accounts API host
 *   (secureapi.pagstar-prod.onz.software) to a CPF, CNPJ, e-mail, phone or EVP
 *   key, answered 202 Accepted and nothing more (the stand-in sends no body);
 *   the payout settles LIQUIDATED or CANCELED and Pagstar posts the transfer
 *   webhook; the receiver checks it by GET
 *   /api/v2/pix/payments/idempotencyKey/{idempotencyKey}
 *   (https://docs.pagstar.com/reference/account-api-get-transfer-details:
 *   statuses CANCELED, PROCESSING, LIQUIDATED, REFUNDED, PARTIALLY_REFUNDED;
 *   errorCode such as AB03), answered {data} as Onz's platform documents that
 *   read (https://infopago.apidog.io/get-transaction-details-by-idempotency-key-17062985e0).
 *   The payout is not read back by endToEndId (no such page).
 * - The transfer webhook (https://docs.pagstar.com/reference/account-api-configure-webhook):
 *   {data{id, idempotencyKey, endToEndId, pixKey, transactionType PIX, status,
 *   errorCode, creditDebitType, localInstrument, createdAt, creditorAccount,
 *   debtorAccount, remittanceInformation, txId, payment{currency BRL, amount
 *   (reais, a number)}, refunds[]}, type TRANSFER}, unsigned.
 *
 * What the pages do not show, and so the stand-in does not do: a cash-in
 * notification (a paid cob is known by GET /cob), the devolução (no refunds),
 * the Accounts API's own token request (the same JSON one is asked of its host).
 * The stand-in's readings where they are silent are the family stand-in's
 * (bacenpix.ts): the idempotency header `x-idempotency-key` ([a-zA-Z0-9]{1,50},
 * Onz's), the payout body {pixKey, payment{amount, currency}, …} and its
 * onz-0002 refusals.
 */
export const PAGSTAR_SOURCES = {
  auth: 'https://docs.pagstar.com/reference',
  cobv: 'https://docs.pagstar.com/reference/criar-cobran%C3%A7a-imediata-copy-1',
  cashOut: 'https://docs.pagstar.com/reference/criar-transfer%C3%AAncia-com-dados-banc%C3%A1rios-copy',
  transferDetails: 'https://docs.pagstar.com/reference/account-api-get-transfer-details',
  transferWebhook: 'https://docs.pagstar.com/reference/account-api-configure-webhook',
  pixTopics: 'https://docs.pagstar.com/docs/assuntos-relacionados-ao-pix-1',
  apiPix: 'https://github.com/bacen/pix-api/blob/0d74e5e1a2eefc0eb3f373860d1266ceab5f864e/openapi.yaml',
  onzTransferByKey: 'https://infopago.apidog.io/get-transaction-details-by-idempotency-key-17062985e0',
} as const;

export type PagstarStandInOptions = Pick<BacenPixStandInOptions, 'clientId' | 'clientSecret' | 'chave' | 'certificates' | 'now'>;

/** Pagstar's QR Codes API and Accounts API on one loopback server behind mTLS (the tests point both hosts at it). */
export function startPagstarStandIn(options: PagstarStandInOptions): Promise<BacenPixStandIn> {
  return startBacenPixStandIn({
    ...options,
    name: 'PAGSTAR',
    sources: Object.values(PAGSTAR_SOURCES),
    token: { body: 'json', answer: 'pagstar' },
    receiveEvent: 'none',
    devolucoes: false,
    payouts: { idempotencyKey: /^[a-zA-Z0-9]{1,50}$/, lookup: 'idempotencyKey', accepted: 'empty' },
  });
}
