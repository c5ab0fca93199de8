import { SPEC_GROUPS } from '../adapter.js';
import { DOC3_COMMON_OVERRIDES, type TransactionsApiMember } from '../families/transactionsApi/index.js';
import { F1Adapter } from '../families/transactionsApi/platforms/f1.js';
import { member } from '../kit/registration.js';

/**
 * HAWKPAY (spec doc 3, group 3), a member of the transactions API family on
 * the F1 "Pagar.me-v4 clone" platform (provider research: api.hawkpaybrasil.com/v1):
 * POST /transactions (PIX, credit_card, boleto) and GET /transactions/{id}, no
 * refund and no payout (doc 3 §7; the platform has transfers, the spec gives
 * Hawkpay none); PIX valid 1 day, boleto 3 days (§9); doc 3's common status
 * pattern (§4). HTTP Basic with the public key as user and the secret key as
 * password (research, one public integration), amounts in cents. Its charge
 * body is the platform's (F1Adapter): a card by `card.hash`, as the
 * platform's documentation shows, a boleto by `boleto.expirationDate`.
 */
export const HAWKPAY: TransactionsApiMember = {
  identity: { id: 'HAWKPAY', specGroup: SPEC_GROUPS.DOC3_GROUP3, defaultBaseUrl: 'https://api.hawkpaybrasil.com/v1' },
  capabilities: { paymentMethods: ['PIX', 'CREDIT_CARD', 'BILLET'], webhooks: true },
  auth: { type: 'basic', username: 'publicKey', password: 'secretKey' },
  credentials: { required: ['publicKey', 'secretKey'] },
  money: 'cents',
  sources:
    "paths, no refund, validity, statuses: spec (doc 3 §4/§7/§9); host `api.hawkpaybrasil.com/v1`, Basic publicKey:secretKey: research (F1, one public integration); cents, the charge body (`customer{name, email, phone, document{number, type}}`, `items[{title, unitPrice, quantity, tangible}]`, `card{hash}`, `pix{expiresInDays}`), the transaction object and a declined card as `refused` with its `refusedReason`, the postback `{id, type, objectId, url, data}` (unsigned): the F1 platform's documentation (its other instances' pages, the addresses in tests/standins/f1Platform.ts); the read's answer, `pix{qrcode}`, `boleto{expirationDate}` and the boleto's answer: the platform's public clients; all checked by the stand-in tests/standins/hawkpay.ts",
  statuses: { transaction: { overrides: DOC3_COMMON_OVERRIDES } },
};

export default member(F1Adapter, HAWKPAY);
