import { SPEC_GROUPS } from '../adapter.js';
import { DOC3_COMMON_OVERRIDES, TransactionsApiAdapter, type TransactionsApiMember } from '../families/transactionsApi/index.js';
import { member } from '../kit/registration.js';

/**
 * HAWKPAY (spec doc 3, group 3), a member of the transactions API family: POST
 * /transactions (PIX, credit_card, boleto) and GET /transactions/{id}, no refund
 * (doc 3 §7); PIX valid 1 day, boleto 3 days (§9); doc 3's common status
 * pattern (§4). From the provider research (F1 "Pagar.me-v4 clone", one public
 * integration): host api.hawkpaybrasil.com/v1, HTTP Basic with the public key
 * as user and the secret key as password, amounts in cents.
 */
export const HAWKPAY: TransactionsApiMember = {
  identity: { id: 'HAWKPAY', specGroup: SPEC_GROUPS.DOC3_GROUP3, defaultBaseUrl: 'https://api.hawkpaybrasil.com/v1' },
  capabilities: { paymentMethods: ['PIX', 'CREDIT_CARD', 'BILLET'], webhooks: true },
  auth: { type: 'basic', username: 'publicKey', password: 'secretKey' },
  credentials: { required: ['publicKey', 'secretKey'] },
  money: 'cents',
  sources:
    'paths, no refund, validity, statuses: spec (doc 3 §4/§7/§9); host `api.hawkpaybrasil.com/v1`, Basic publicKey:secretKey, F1 body and postback, cents: research (F1, one public integration)',
  statuses: { transaction: { overrides: DOC3_COMMON_OVERRIDES } },
};

export default member(TransactionsApiAdapter, HAWKPAY);
