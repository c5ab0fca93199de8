import { COMPE_BANKS } from '../../lib/banks.js';
import { SECONDS_PER_DAY } from '../../lib/expiry.js';
import { SPEC_GROUPS } from '../adapter.js';
import { OrdersApiAdapter, type OrdersApiMember } from '../families/ordersApi/index.js';
import { member } from '../kit/registration.js';
import { PAGARME_BALANCE_RESPONSE, PAGARME_V5_DOCUMENTATION, PAGARMEBAAS } from './pagarmebaas.js';

/** A charge's payables, where Pagar.me v5 states the fee it took (the order and charge answers state none). */
export const PAGARME_PAYABLES = [
  'https://docs.pagar.me/reference/receb%C3%ADveis',
  'https://github.com/pagarme/pagarme-nodejs-sdk/blob/947b71d/src/controllers/payablesController.ts',
  'https://github.com/pagarme/pagarme-nodejs-sdk/blob/947b71d/src/models/getPayableResponse.ts',
] as const;

/** Pagar.me v5 as PAGARMEBAAS speaks it, without PAGARMEBAAS's own 5-day boleto (doc 2 §9 names it for group 2 only). */
const { expiry: _pagarmeBaasBoleto, ...PAGARME_V5 } = PAGARMEBAAS;

/**
 * PAGARME (spec doc 2, group 1): Pagar.me's API v5 (research; the issue asks
 * for "Pagar.me v5 for PAGARME (the orders family)"), the orders family as
 * PAGARMEBAAS uses it: orders with PIX, boleto and card charges, card tokens
 * and saved cards, refunds by DELETE /charges/{id}, withdrawals from a
 * recipient, Pagar.me's events; §9's default validity (PIX 1 day, boleto 3
 * days). Besides, document 1's parts that belong to one provider, decided to
 * be PAGARME's (docs/decisions.md):
 * - receivers are Pagar.me recipients (doc 1 §7 "POST /recipients; GET
 *   /recipients/{id}", the balance from GET /recipients/{id}/balance), created
 *   with §9's transfer settings (transfer disabled, interval Daily, day 0) and
 *   only at a bank of §3's list of about 70 (`COMPE_BANKS`, server/lib/banks.ts);
 * - their statuses by §4's third rule, plus Pagar.me's `refused` REJECTED;
 * - §9's "card receivable due date: 1 year", reported as a card charge's
 *   expiresAt (Pagar.me v5 takes no such field, so nothing is sent).
 * The account's balance (issue 33 §4) is its default recipient's, the one its
 * platform_id names for payouts: GET /recipients/{id}/balance, `available_amount`
 * available and `waiting_funds_amount` pending (the SDK's GetBalanceResponse).
 */
export const PAGARME: OrdersApiMember = {
  ...PAGARME_V5,
  identity: { id: 'PAGARME', specGroup: SPEC_GROUPS.DOC2_GROUP1, defaultBaseUrl: 'https://api.pagar.me/core/v5' },
  capabilities: { ...PAGARMEBAAS.capabilities, receivers: true },
  evidence: { level: 'documented', addresses: [...PAGARME_V5_DOCUMENTATION, PAGARME_BALANCE_RESPONSE, ...PAGARME_PAYABLES] },
  expiry: { cardReceivableSeconds: 365 * SECONDS_PER_DAY },
  payableFees: true,
  // Pagar.me's recipient statuses: registration, affiliation, active, refused, suspended, blocked, inactive.
  // §4's rule gives active ACTIVE and the rest PENDING; a refused registration is clearly a rejection.
  // Suspended, blocked and inactive can be lifted at Pagar.me: PENDING, as the rule says.
  statuses: {
    receiver: {
      overrides: { registration: 'PENDING', affiliation: 'PENDING', refused: 'REJECTED', suspended: 'PENDING', blocked: 'PENDING', inactive: 'PENDING' },
    },
  },
  // Doc 1 §8: 'Receiver not found.' when Pagar.me does not know the recipient.
  notFound: { getReceiver: 'RECEIVER_NOT_FOUND' },
  receiverBanks: COMPE_BANKS,
  sources:
    "host `api.pagar.me/core/v5`, Basic with the secret key, bodies, statuses (`pending_refund` among them), events, `Idempotency-Key` (orders, payouts, refunds), the orders paths: Pagar.me's documentation as for PAGARMEBAAS (docs.pagar.me, pagarme-nodejs-sdk), verified by the stand-in written from it (tests/standins/pagarme.ts), which also serves recipients, balances and withdrawals; recipient paths, transfer settings (disabled, Daily, day 0), the bank list's size and sample codes, the receiver-status rule, 'Receiver not found.', the one-year card receivable (reported as a card charge's expiresAt, nothing sent): spec (doc 1 §3/§4/§7/§8/§9, decided to be PAGARME's); recipient and bank-account bodies (`CreateRecipientRequest`, `CreateBankAccountRequest`, `CreateTransferSettingsRequest`), recipient and balance answers (`GetRecipientResponse`, `GetBalanceResponse`), `GET /recipients/{id}/balance`: research (pagarme/pagarme-nodejs-sdk); the account's balance as its default recipient's (platform_id), `available_amount` available and `waiting_funds_amount` pending: GetBalanceResponse (pagarme-nodejs-sdk), the recipient by platform_id the gateway's, as for payouts; a paid charge's fee from its payables, GET /payables?charge_id=… `{data, paging}` with `fee` and `fraud_coverage_fee` in cents and `type` credit/refund/… (docs.pagar.me Recebíveis; payablesController, GetPayableResponse), the credit ones of the platform_id's recipient (all recipients' without one), asked only on a read that finds the charge paid, a payables failure leaving the read without a fee: the gateway's decision; the ~70 banks: Banco Central's STR participants (`server/lib/banks.ts`); refused REJECTED: gateway; validity: document 1 §9 defaults",
};

export default member(OrdersApiAdapter, PAGARME);
