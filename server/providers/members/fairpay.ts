import { SPEC_GROUPS } from '../adapter.js';
import { TransactionsApiAdapter, type TransactionsApiMember } from '../families/transactionsApi/index.js';
import { member } from '../kit/registration.js';

/**
 * FAIRPAY (spec doc 2, group 2), a member of the transactions API family that
 * refunds by DELETE /transactions/{id} (doc 2 §7). From the provider research
 * (F2 "functions/v1", FairPayments' public integrations): host
 * api.fairpayments.com.br/functions/v1, HTTP Basic with the secret key and 'x',
 * and the company id in `x-company-id`, which the account's public key holds.
 */
export const FAIRPAY: TransactionsApiMember = {
  identity: { id: 'FAIRPAY', specGroup: SPEC_GROUPS.DOC2_GROUP2, defaultBaseUrl: 'https://api.fairpayments.com.br/functions/v1' },
  capabilities: { paymentMethods: ['PIX', 'CREDIT_CARD', 'BILLET'], refunds: true, webhooks: true },
  auth: { type: 'basic', username: 'secretKey', password: () => 'x' },
  headers: { 'x-company-id': 'publicKey' },
  credentials: { required: ['publicKey', 'secretKey'] },
  money: 'cents',
  sources:
    "DELETE refund: spec (doc 2 §7); host `api.fairpayments.com.br/functions/v1`, Basic with the secret key, `x-company-id`: research (F2, FairPayments' public integrations)",
  paths: { refund: { method: 'DELETE', path: '/transactions/{id}' } },
};

export default member(TransactionsApiAdapter, FAIRPAY);
