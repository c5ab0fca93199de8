import { SPEC_GROUPS } from '../adapter.js';
import { type TransactionsApiMember } from '../families/transactionsApi/index.js';
import { F2_PLATFORM, F2_PLATFORM_ADDRESSES, F2Adapter } from '../families/transactionsApi/platforms/f2.js';
import { member } from '../kit/registration.js';

/**
 * MEDIUS (spec doc 2, group 2), a member of the transactions API family on a
 * "functions/v1" platform: POST /transactions, GET /transactions/{id}, PIX
 * payouts by POST /withdrawals/cashout (pixkeytype, pixkey, requestedamount,
 * isPix) (doc 2 §7); refunds not implemented (§7, §8). From the provider
 * research (F2, MediusPag's public integrations): host
 * api.mediuspag.com/functions/v1, HTTP Basic with the secret key and 'x'.
 * The rest is the "functions/v1" platform's (platforms/f2.ts): amounts in
 * cents, the cashout with an Idempotency-Key, payout events {event:
 * 'withdrawal.…', withdrawal{…}}, no payout read. MediusPag's own
 * documentation was not found: its evidence is the platform's
 * (tests/standins/medius.test.ts).
 */
export const MEDIUS: TransactionsApiMember = {
  identity: { id: 'MEDIUS', specGroup: SPEC_GROUPS.DOC2_GROUP2, defaultBaseUrl: 'https://api.mediuspag.com/functions/v1' },
  capabilities: { paymentMethods: ['PIX', 'CREDIT_CARD', 'BILLET'], withdrawMethods: ['PIX'], webhooks: true },
  auth: { type: 'basic', username: 'secretKey', password: () => 'x' },
  credentials: { required: ['secretKey'] },
  ...F2_PLATFORM,
  evidence: { level: 'platform', addresses: F2_PLATFORM_ADDRESSES },
  sources:
    "paths, cashout fields, no refunds: spec (doc 2 §7/§8); the PIX charge (upper-case `PIX`/`CPF`, cents, the flat answer), GET /transactions/{id}, signed charge postbacks, the cashout (`Idempotency-Key`, upper-case `pixkeytype`, `requestedamount` in cents, `isPix`), its answer and events `{event: withdrawal.…, withdrawal{id, status}}`, no payout read: the platform's documentation (HunterSub, FullPix); host `api.mediuspag.com/functions/v1`, Basic with the secret key and 'x': research (F2, MediusPag's public integrations); card and boleto bodies: the gateway's decision (not in the pages read)",
  paths: { withdraw: '/withdrawals/cashout' },
};

export default member(F2Adapter, MEDIUS);
