import { SPEC_GROUPS } from '../adapter.js';
import { TransactionsApiAdapter, type TransactionsApiMember } from '../families/transactionsApi/index.js';
import { member } from '../kit/registration.js';

/**
 * MEDIUS (spec doc 2, group 2), a member of the transactions API family on a
 * "functions/v1" platform: POST /transactions, GET /transactions/{id}, PIX
 * payouts by POST /withdrawals/cashout (pixkeytype, pixkey, requestedamount,
 * isPix) (doc 2 §7); refunds not implemented (§7, §8). From the provider
 * research (F2, MediusPag's public integrations): host
 * api.mediuspag.com/functions/v1, HTTP Basic with the secret key and 'x',
 * amounts in cents, payout events {event: 'withdrawal.created', withdrawal{…}}.
 */
export const MEDIUS: TransactionsApiMember = {
  identity: { id: 'MEDIUS', specGroup: SPEC_GROUPS.DOC2_GROUP2, defaultBaseUrl: 'https://api.mediuspag.com/functions/v1' },
  capabilities: { paymentMethods: ['PIX', 'CREDIT_CARD', 'BILLET'], withdrawMethods: ['PIX'], webhooks: true },
  auth: { type: 'basic', username: 'secretKey', password: () => 'x' },
  credentials: { required: ['secretKey'] },
  money: 'cents',
  sources:
    "paths, cashout fields, no refunds: spec (doc 2 §7/§8); host `api.mediuspag.com/functions/v1`, Basic with the secret key, cents, payout events `{event: withdrawal.created, withdrawal{…}}`: research (F2, MediusPag's public integrations)",
  paths: { withdraw: '/withdrawals/cashout' },
  payoutBody: 'cashout',
};

export default member(TransactionsApiAdapter, MEDIUS);
