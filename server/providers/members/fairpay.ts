import { SPEC_GROUPS } from '../adapter.js';
import { type TransactionsApiMember } from '../families/transactionsApi/index.js';
import { F2_PLATFORM, F2_PLATFORM_ADDRESSES, F2Adapter } from '../families/transactionsApi/platforms/f2.js';
import { member } from '../kit/registration.js';

/**
 * FAIRPAY (spec doc 2, group 2), a member of the transactions API family on
 * the "functions/v1" platform (platforms/f2.ts) that refunds by DELETE
 * /transactions/{id} (doc 2 §7). From the provider research (F2, FairPayments'
 * public integrations): host api.fairpayments.com.br/functions/v1, HTTP Basic
 * with the secret key and 'x', and the company id in `x-company-id`, which the
 * account's public key holds. FairPayments' own documentation was not found:
 * its evidence is the platform's (tests/standins/fairpay.test.ts).
 */
export const FAIRPAY: TransactionsApiMember = {
  identity: { id: 'FAIRPAY', specGroup: SPEC_GROUPS.DOC2_GROUP2, defaultBaseUrl: 'https://api.fairpayments.com.br/functions/v1' },
  capabilities: { paymentMethods: ['PIX', 'CREDIT_CARD', 'BILLET'], refunds: true, webhooks: true },
  auth: { type: 'basic', username: 'secretKey', password: () => 'x' },
  headers: { 'x-company-id': 'publicKey' },
  credentials: { required: ['publicKey', 'secretKey'] },
  ...F2_PLATFORM,
  evidence: { level: 'platform', addresses: F2_PLATFORM_ADDRESSES },
  sources:
    "DELETE refund: spec (doc 2 §7); the PIX charge (upper-case `PIX`/`CPF`, cents, `pix.expiresInDays`, the flat answer), GET, DELETE on /transactions/{id}, signed postbacks (`X-Webhook-Signature: sha256=` HMAC of the body with the charge's `webhookSecret`): the platform's documentation (HunterSub, FullPix); host `api.fairpayments.com.br/functions/v1`, Basic with the secret key and 'x', `x-company-id`: research (F2, FairPayments' public integrations); the refund body `{amount}` and card and boleto bodies (`CREDIT_CARD`/`BOLETO`, inferred from the PIX casing): the gateway's decision, no page read shows them",
  paths: { refund: { method: 'DELETE', path: '/transactions/{id}' } },
};

export default member(F2Adapter, FAIRPAY);
